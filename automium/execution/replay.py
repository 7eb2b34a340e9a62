"""A real run's ``replay-event.v1`` events, stamped as they happen.

Offsets are real: milliseconds on a monotonic clock since the run started. The envelope,
the sequence and what a payload keeps are the one recorder's
(:class:`automium.replay.recording.Recorder`), which the modeled timeline uses too.
"""

from __future__ import annotations

import json
import time

from automium.replay.recording import Event, Recorder

__all__ = ["Event", "Replay"]


class Replay(Recorder):
    def __init__(self, run_id: str) -> None:
        started = time.monotonic()
        super().__init__(run_id, lambda: int((time.monotonic() - started) * 1000))

    def now_ms(self) -> int:
        return self.clock()

    def ndjson(self) -> bytes:
        return "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in self.events).encode()
