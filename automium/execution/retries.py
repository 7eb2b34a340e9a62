"""A trial run again when it does not pass (``--retries N``), as Playwright Test retries.

Each attempt is a run of its own, in its own run directory: the first where a run goes,
attempt k+1 under ``retry-k/`` beside it (the run id is the trial's, so the folders tell the
attempts apart). A trial that did not pass but whose retry did is *flaky*: it is reported as
flaky, never as passed, and its recorded trial is its first attempt's, so a comparison
measures what a planner does the first time.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from automium.contracts import Verdict

if TYPE_CHECKING:
    from automium.execution.executor import Outcome

MAX_RETRIES = 5


@dataclass(frozen=True, slots=True)
class Tried:
    """Every attempt at one trial, the first first."""

    attempts: tuple[Outcome, ...]

    @property
    def first(self) -> Outcome:
        return self.attempts[0]

    @property
    def retries(self) -> tuple[Outcome, ...]:
        return self.attempts[1:]

    @property
    def flaky(self) -> bool:
        return len(self.attempts) > 1 and self.attempts[-1].verdict is Verdict.PASSED


def tried(attempt: Callable[[int], Outcome], retries: int) -> Tried:
    """``attempt(0)``, then ``attempt(k)`` while the last did not pass, ``retries`` at most."""
    attempts = [attempt(0)]
    while attempts[-1].verdict is not Verdict.PASSED and len(attempts) <= retries:
        attempts.append(attempt(len(attempts)))
    return Tried(tuple(attempts))


def attempt_root(root: Path, attempt: int) -> Path:
    """Where attempt ``attempt`` (0 for the first) of a trial whose runs go in ``root`` goes."""
    return root if attempt == 0 else root / f"retry-{attempt}"
