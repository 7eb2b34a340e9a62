"""The one recorder of ``replay-event.v1`` events, for a modeled run and a real one alike.

The envelope, the sequence numbers and what a payload keeps are written here once; only the
clock differs. A modeled run's offsets are the model's (:class:`ModeledClock`, moved on by
what each event is modeled to take); a real run's are the milliseconds since it started,
on a clock the executor passes in. Nothing here reads a clock of its own.

A payload is a flat map of strings, numbers and booleans, as the contract wants: a value
that is ``None`` is left out, and a text longer than :data:`TEXT_LIMIT` (an error of
Playwright's) is cut to what a reader needs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from automium.contracts import EventType, ReplayLane, Verdict

Event = dict[str, Any]
SCHEMA_VERSION = "automium.replay-event/v1"
TEXT_LIMIT = 500


class ModeledClock:
    """A modeled run's time: it moves only when the model says an event took time."""

    def __init__(self) -> None:
        self.offset_ms = 0

    def advance(self, ms: int) -> int:
        self.offset_ms += ms
        return self.offset_ms

    def __call__(self) -> int:
        return self.offset_ms


class Recorder:
    """The events of one run, in ``seq`` order, each stamped by ``clock`` (milliseconds)."""

    def __init__(self, run_id: str, clock: Callable[[], int]) -> None:
        self.run_id = run_id
        self.clock = clock
        self.events: list[Event] = []

    def emit(
        self,
        lane: ReplayLane,
        kind: EventType,
        payload: Mapping[str, Any],
        *,
        step: str | None = None,
        verdict: Verdict | None = None,
    ) -> Event:
        event: Event = {
            "schemaVersion": SCHEMA_VERSION,
            "runId": self.run_id,
            "seq": len(self.events),
            "offsetMs": self.clock(),
            "lane": lane.value,
            "type": kind.value,
        }
        if step is not None:
            event["stepId"] = step
        if verdict is not None:
            event["verdict"] = verdict.value
        event["payload"] = {
            key: value[:TEXT_LIMIT] if isinstance(value, str) else value
            for key, value in payload.items()
            if value is not None
        }
        self.events.append(event)
        return event
