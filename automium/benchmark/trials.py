"""One trial: a planner running one journey once, whatever produced it.

The metric code reads nothing else, so trials recorded from real runs (``recorded``) are
aggregated exactly like modeled ones (``simulation``). What a source does not know stays
``None``, and a metric that needs it is then ``null`` rather than invented.
"""

from __future__ import annotations

from typing import Any, NamedTuple


class TrialError(ValueError):
    """Trials that no metric can be computed from: inconsistent, or too few for pass^k."""


class _Outcome(NamedTuple):
    planner_id: str
    app_id: str
    journey_id: str
    repetition: int
    passed: bool
    latency_ms: int
    input_tokens: int
    output_tokens: int
    recovery_attempts: int = 0
    failing_step: str | None = None
    failing_lane: str | None = None
    steps_completed: int | None = None
    steps_total: int | None = None


class Trial(_Outcome):
    """The outcome of one repetition of one journey by one planner.

    ``passed`` is the final verdict, recovery included. ``failing_step`` is the step at which
    a failed trial ended and ``failing_lane`` the replay lane its failure shows on, when
    known. ``steps_completed`` of ``steps_total`` are known together or not at all.

    An immutable tuple: a comparison builds up to 15,200 of them, and a tuple is built in a
    sixth of a frozen dataclass's time.
    """

    __slots__ = ()

    def __new__(  # noqa: PLR0917 - a tuple's fields are positional, as its _make and copy need
        cls,
        planner_id: str,
        app_id: str,
        journey_id: str,
        repetition: int,
        passed: bool,
        latency_ms: int,
        input_tokens: int,
        output_tokens: int,
        recovery_attempts: int = 0,
        failing_step: str | None = None,
        failing_lane: str | None = None,
        steps_completed: int | None = None,
        steps_total: int | None = None,
    ) -> Trial:
        trial = _Outcome.__new__(
            cls,
            planner_id,
            app_id,
            journey_id,
            repetition,
            passed,
            latency_ms,
            input_tokens,
            output_tokens,
            recovery_attempts,
            failing_step,
            failing_lane,
            steps_completed,
            steps_total,
        )
        trial._check()
        return trial

    @classmethod
    def consistent(cls, *fields: Any) -> Trial:
        """A trial from its fields in order, unchecked: for the planner model, whose trials
        are consistent by construction."""
        return tuple.__new__(cls, fields)

    def _check(self) -> None:
        # Recorded trials come from outside the model; an inconsistent one would silently
        # skew every rate it is counted in, so it is refused here, once.
        counts = (self.repetition, self.latency_ms, self.input_tokens, self.output_tokens)
        if min(*counts, self.recovery_attempts) < 0:
            raise TrialError(f"negative count in {self!r}")
        if self.passed and self.failing_step is not None:
            raise TrialError(f"a passed trial has no failing step: {self!r}")
        if self.failing_lane is not None and self.failing_step is None:
            raise TrialError(f"a failing lane needs a failing step: {self!r}")
        if (self.steps_completed is None) != (self.steps_total is None):
            raise TrialError(f"steps completed and total go together: {self!r}")
        if self.steps_completed is not None and self.steps_total is not None:
            if not 0 <= self.steps_completed <= self.steps_total:
                raise TrialError(f"steps completed must be 0 to steps total: {self!r}")
            if self.passed and self.steps_completed < self.steps_total:
                raise TrialError(f"a passed trial completed every step: {self!r}")

    @property
    def recovered(self) -> bool:
        """Tried recovery and passed: the trial-level recovery the records can tell."""
        return self.passed and self.recovery_attempts > 0

    @property
    def tokens(self) -> int:
        return self.input_tokens + self.output_tokens

    @property
    def steps_attempted(self) -> int | None:
        """Steps run: all of a passed trial's; a failed one's completed steps and the one it
        failed at (none more when it failed after its last step)."""
        if self.steps_completed is None or self.steps_total is None:
            return None
        if self.passed:
            return self.steps_total
        return min(self.steps_total, self.steps_completed + 1)
