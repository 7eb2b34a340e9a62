"""A journey's branches: runs of consecutive steps that carry the same guard (``when``).

A guard is decided once, before the first step of its branch: when it holds the branch's
steps run (and the assertions after them are checked), when it fails they are skipped and
the journey goes on after the branch. Compile, the graph, a run and an export all read
branches from here, so they agree on where one starts and ends.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from automium.journeys.node_captions import assertion_label


@dataclass(frozen=True, slots=True)
class Branch:
    """Steps ``start`` up to (not including) ``end`` run only when ``guard`` holds."""

    start: int
    end: int
    guard: Mapping[str, Any]

    def __contains__(self, index: object) -> bool:
        return isinstance(index, int) and self.start <= index < self.end


def branches(steps: Sequence[object]) -> tuple[Branch, ...]:
    """The branches of ``steps`` (raw step documents; anything not an object is no step)."""
    found: list[Branch] = []
    index = 0
    while index < len(steps):
        guard = _guard(steps[index])
        if guard is None:
            index += 1
            continue
        end = index + 1
        while end < len(steps) and _guard(steps[end]) == guard:
            end += 1
        found.append(Branch(index, end, guard))
        index = end
    return tuple(found)


def starting_at(steps: Sequence[object]) -> dict[int, Branch]:
    """The branches of ``steps`` by the index of their first step."""
    return {b.start: b for b in branches(steps)}


def guard_caption(guard: Mapping[str, Any]) -> str:
    """The guard in words, as the graph and an export's comment write it."""
    return assertion_label(guard)


def _guard(step: object) -> Mapping[str, Any] | None:
    if not isinstance(step, dict):
        return None
    guard = step.get("when")
    return guard if isinstance(guard, dict) else None
