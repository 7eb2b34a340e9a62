"""One trial: a planner running one reference journey once, whatever produced it.

The metric code reads nothing else, so trials recorded from real runs can later be
aggregated exactly like modeled ones.
"""

from __future__ import annotations

from dataclasses import dataclass


class TrialError(ValueError):
    """Trials that no metric can be computed from: inconsistent, or too few for pass^k."""


@dataclass(frozen=True, slots=True)
class Trial:
    """The outcome of one repetition of one journey by one planner.

    ``passed`` is the final verdict, recovery included: a trial that failed, tried recovery
    and recovered has ``recovery_attempted``, ``recovered`` and ``passed`` all true.
    """

    planner_id: str
    app_id: str
    journey_id: str
    repetition: int
    passed: bool
    latency_ms: int
    input_tokens: int
    output_tokens: int
    recovery_attempted: bool
    recovered: bool

    def __post_init__(self) -> None:
        # Recorded trials come from outside the model; an inconsistent one would silently
        # skew every rate it is counted in, so it is refused here, once.
        if min(self.repetition, self.latency_ms, self.input_tokens, self.output_tokens) < 0:
            raise TrialError(f"negative count in {self!r}")
        if self.recovered and not (self.recovery_attempted and self.passed):
            raise TrialError(f"a recovered trial must have tried recovery and passed: {self!r}")
