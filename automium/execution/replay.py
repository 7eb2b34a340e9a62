"""A real run's ``replay-event.v1`` events, stamped as they happen.

Offsets are real: milliseconds on a monotonic clock since the run started. Payloads are
flat maps of strings, numbers and booleans, as the contract wants: a value that is ``None``
is left out and a long text (an error of Playwright's) is cut to what a reader needs.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from automium.contracts import ReplayLane, Verdict

Event = dict[str, Any]
_TEXT = 500


@dataclass
class Replay:
    run_id: str
    started: float = field(default_factory=time.monotonic)
    events: list[Event] = field(default_factory=list)

    def now_ms(self) -> int:
        return int((time.monotonic() - self.started) * 1000)

    def emit(
        self,
        lane: ReplayLane,
        kind: str,
        payload: Mapping[str, Any],
        *,
        step: str | None = None,
        verdict: Verdict | None = None,
    ) -> Event:
        event: Event = {
            "schemaVersion": "automium.replay-event/v1",
            "runId": self.run_id,
            "seq": len(self.events),
            "offsetMs": self.now_ms(),
            "lane": lane.value,
            "type": kind,
        }
        if step is not None:
            event["stepId"] = step
        if verdict is not None:
            event["verdict"] = verdict.value
        event["payload"] = {
            k: (v[:_TEXT] if isinstance(v, str) else v) for k, v in payload.items() if v is not None
        }
        self.events.append(event)
        return event

    def ndjson(self) -> bytes:
        return "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in self.events).encode()
