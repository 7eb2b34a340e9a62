"""A field the domain always fills, read from a model whose contract makes it optional.

The output contracts mark what only ``detail: "full"`` answers carry (the graph's nodes and
edges, a comparison's per-app metrics and pass^k curve): optional on the wire, so their
models say ``| None``. The domain itself always builds the whole document; a test reading
it says so with :func:`filled`, which fails the test if the domain left the field out.
"""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")


def filled(value: T | None) -> T:
    assert value is not None, "the domain left out a field it always fills"
    return value
