"""Checks and orderings over replay events (``replay-event.v1``).

A timeline is well formed when its ``seq`` values are unique and time never runs backwards
along ``seq`` (which run the events belong to is the reader's check: ``replay.event_reading``);
readers then take it in ``seq`` order, per lane.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

from automium.contracts import ErrorCode, ReplayEvent, ReplayLane
from automium.errors import Problem, pointer


def order_events(events: Iterable[ReplayEvent]) -> tuple[ReplayEvent, ...]:
    return tuple(sorted(events, key=lambda e: e.seq))


def events_by_lane(events: Iterable[ReplayEvent]) -> dict[ReplayLane, tuple[ReplayEvent, ...]]:
    """Events per lane, lanes in vocabulary order, each lane in ``seq`` order."""
    ordered = order_events(events)
    return {lane: tuple(e for e in ordered if e.lane == lane) for lane in ReplayLane}


def event_problems(events: Sequence[ReplayEvent]) -> list[Problem]:
    """Every problem of a timeline, pointing at the offending event's index."""
    problems: list[Problem] = []
    seen: dict[int, int] = {}
    for index, event in enumerate(events):
        if event.seq in seen:
            problems.append(
                Problem(
                    ErrorCode.INVALID_INPUT,
                    f"seq {event.seq} is already used by event {seen[event.seq]}",
                    pointer(index, "seq"),
                )
            )
        seen.setdefault(event.seq, index)
    ordered = sorted(range(len(events)), key=lambda i: events[i].seq)
    for before, after in itertools.pairwise(ordered):
        if events[after].offset_ms < events[before].offset_ms:
            problems.append(
                Problem(
                    ErrorCode.INVALID_INPUT,
                    f"offsetMs goes back in time after seq {events[before].seq}",
                    pointer(after, "offsetMs"),
                )
            )
    return problems
