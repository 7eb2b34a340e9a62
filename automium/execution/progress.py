"""A long run's progress on a terminal: trial i of n, passes, failures, elapsed.

One line on stderr, rewritten as each trial ends, and ended once the run is over. Silent
when stderr is not a terminal (CI logs, pipes) and with ``--json``, so that nothing but the
report reaches a reader that parses it.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

from automium.contracts import Verdict


class Progress:
    def __init__(self, total: int, *, quiet: bool = False, stream: TextIO | None = None) -> None:
        self.stream = sys.stderr if stream is None else stream
        self.shown = not quiet and self.stream.isatty()
        self.total = total
        self.passed = self.failed = 0
        self.started = time.monotonic()

    def done(self, verdict: Verdict) -> None:
        """One more trial ended with ``verdict``."""
        if verdict is Verdict.PASSED:
            self.passed += 1
        else:
            self.failed += 1
        if self.shown:
            elapsed = time.monotonic() - self.started
            self.stream.write(
                f"\r{self.passed + self.failed}/{self.total} trials: {self.passed} passed, "
                f"{self.failed} failed, {elapsed:.0f} s"
            )
            self.stream.flush()

    def close(self) -> None:
        if self.shown and self.passed + self.failed:
            self.stream.write("\n")
            self.stream.flush()
