"""A journey's integers as integers: ``"nth": 2.0`` is ``"nth": 2``.

JSON Schema calls a number with a zero fraction an integer, so the contract accepts
``2.0`` wherever it asks for an integer; Python does not (``isinstance(2.0, int)`` is
false), and a check that tests for an int would read ``2.0`` as "no nth". Every consumer
of a document (compile's page walk, the executor, export) reads it through
:func:`whole_numbers` instead, so the number means the same everywhere.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

from automium.contracts import check_schema


@cache
def integer_fields() -> frozenset[str]:
    """The property names ``journey.v1`` types as integers (``nth``, ``count``, ...)."""
    return frozenset(_integers(check_schema("journey.v1")))


def _integers(node: object) -> Iterator[str]:
    if isinstance(node, Mapping):
        for key, value in (node.get("properties") or {}).items():
            if isinstance(value, Mapping) and value.get("type") == "integer":
                yield key
        for value in node.values():
            yield from _integers(value)
    elif isinstance(node, list):
        for value in node:
            yield from _integers(value)


def whole_numbers(document: Any) -> Any:
    """``document`` with every integral float under an integer field made an int; the
    document itself when it has none (most do not, so nothing is copied)."""
    fields = integer_fields()

    def fixed(value: Any, key: str | None) -> Any:
        if isinstance(value, float) and key in fields and value.is_integer():
            return int(value)
        if isinstance(value, dict):
            items = {k: fixed(v, k) for k, v in value.items()}
            same = all(items[k] is value[k] for k in value)
            return value if same else items
        if isinstance(value, list):
            listed = [fixed(v, None) for v in value]
            return value if all(a is b for a, b in zip(listed, value, strict=True)) else listed
        return value

    return fixed(document, None)
