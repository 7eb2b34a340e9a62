"""What a comparison supports: the best planner or the planners tied for it, whether the
pass-rate intervals let a reader tell them apart, and the pass-rate vs cost Pareto frontier.

Everything is decided on exact values (``Fraction``s of the integer counts in each
planner's metrics), so a tie is a tie and not a rounding accident. Intervals are compared as
the report prints them (four decimals), so a reader can check the overlap from the
document. Planners without trials are left out of the verdict; planners without a success
are left out of the Pareto mark (they have no cost per success).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from automium.contracts import ComparisonVerdict

_DOMINATORS_NAMED = 6
"""Up to this many "dominated by" mentions the summary names them; past it, only who is."""


@dataclass(frozen=True, slots=True)
class Standing:
    """A planner's numbers, as the verdict weighs them."""

    planner_id: str
    trials: int
    passed: int
    tokens: int
    low: float
    high: float

    @property
    def rate(self) -> Fraction:
        return Fraction(self.passed, self.trials)

    def overlaps(self, other: Standing) -> bool:
        return self.low <= other.high and other.low <= self.high


def standings(planners: Sequence[tuple[str, Mapping[str, Any]]]) -> list[Standing]:
    """The planners that have trials, in the given order, from their metrics documents."""
    return [
        Standing(
            planner_id,
            metrics["trials"],
            metrics["passed"],
            metrics["tokens"]["total"],
            interval["low"],
            interval["high"],
        )
        for planner_id, metrics in planners
        if metrics["trials"] and (interval := metrics.get("passRateInterval")) is not None
    ]


def dominates(a: Standing, b: Standing) -> bool:
    """``a`` is at least as good as ``b`` on pass rate and on tokens per success, and better
    on one (both need a success)."""
    if not a.passed or not b.passed:
        return False
    # The signs of rate(a) - rate(b) and cost(a) - cost(b), exactly, by cross-multiplying the
    # counts (every standing has trials): the Fractions cost O(planners²) objects otherwise.
    rate = a.passed * b.trials - b.passed * a.trials
    cost = a.tokens * b.passed - b.tokens * a.passed
    return rate >= 0 and cost <= 0 and (rate > 0 or cost < 0)


def pareto(ranked: Sequence[Standing]) -> Mapping[str, list[str] | None]:
    """Per planner, the planners dominating it (empty: Pareto-optimal); ``None`` for a planner
    without a success, which is left out."""
    return {
        b.planner_id: None
        if not b.passed
        else [a.planner_id for a in ranked if a is not b and dominates(a, b)]
        for b in ranked
    }


def judge(ranked: Sequence[Standing], marks: Mapping[str, list[str] | None]) -> ComparisonVerdict:
    """The verdict on ``ranked`` (planners with trials), with its summary in words."""
    return ComparisonVerdict.model_validate(verdict_document(ranked, marks))


def verdict_document(
    ranked: Sequence[Standing], marks: Mapping[str, list[str] | None]
) -> dict[str, Any]:
    """:func:`judge`'s verdict as its ``ComparisonVerdict`` document, built directly (the
    report is built as a document; a model only to dump it again cost 10 µs a report)."""
    top = max((s.rate for s in ranked), default=None)
    best = [s for s in ranked if s.rate == top]
    others = [s for s in ranked if s not in best]
    overlapping = [s for s in others if any(s.overlaps(b) for b in best)]
    frontier = [s.planner_id for s in ranked if marks.get(s.planner_id) == []]
    return {
        "best": [s.planner_id for s in best],
        "tied": len(best) > 1,
        "overlapping": [s.planner_id for s in overlapping],
        "separable": None if len(ranked) < 2 else len(best) == 1 and not overlapping,
        "paretoFrontier": frontier,
        "summary": " ".join(
            sentence
            for sentence in (
                _best_sentence(ranked, best),
                _overlap_sentence(best, others, overlapping),
                _pareto_sentence(ranked, marks, frontier),
            )
            if sentence
        ),
    }


def modeled_verdict_document(
    ranked: Sequence[Standing], marks: Mapping[str, list[str] | None]
) -> dict[str, Any]:
    """The verdict on modeled trials: they are the same for every planner (a model cannot
    tell planners apart), so it ranks nothing: every planner or none is best, nothing is
    separable, and the summary says what would tell them apart."""
    frontier = [s.planner_id for s in ranked if marks.get(s.planner_id) == []]
    if not ranked:
        summary = "No planner has trials, so nothing can be compared."
    else:
        each = " each" if len(ranked) > 1 else ""
        summary = (
            "Modeled trials are the same for every planner, whatever its id, vendor or "
            f"model: pass rate {_described(ranked[0])}{each}. Planner differences cannot be "
            "measured without recorded trials: give trials recorded from real runs "
            "(automium run) to compare planners."
        )
    return {
        "best": [s.planner_id for s in ranked],
        "tied": len(ranked) > 1,
        "overlapping": [],
        "separable": False,
        "paretoFrontier": frontier,
        "summary": summary,
    }


def _best_sentence(ranked: Sequence[Standing], best: Sequence[Standing]) -> str:
    if not best:
        return "No planner has trials, so nothing can be compared."
    if len(ranked) == 1:
        (only,) = best
        return f"Only {only.planner_id} has trials: pass rate {_described(only)}."
    if len(best) == 1:
        return f"{best[0].planner_id} has the highest pass rate, {_described(best[0])}."
    if len({(s.low, s.high, s.trials) for s in best}) == 1:
        each = f"{_described(best[0])} each"
    else:
        each = (
            f"{_percent(best[0].rate)} ("
            + "; ".join(f"{s.planner_id}: {_interval(s)}, {s.trials} trials" for s in best)
            + ")"
        )
    return f"{_listed(s.planner_id for s in best)} are tied for the highest pass rate, {each}."


def _overlap_sentence(
    best: Sequence[Standing], others: Sequence[Standing], overlapping: Sequence[Standing]
) -> str:
    if not others:
        return ""
    whose, who = ("Its 95% interval overlaps", "it is")
    if len(best) > 1:
        whose, who = ("Their 95% intervals overlap", "they are")
    if not overlapping:
        return f"{whose} no other planner's: ahead at this sample size."
    behind = [s.planner_id for s in others if s not in overlapping]
    names = _listed(f"{s.planner_id}'s" for s in overlapping)
    return (
        f"{whose} {names}: not separable at this sample size"
        + (f"; {who} ahead of {_listed(behind)}" if behind else "")
        + "."
    )


def _pareto_sentence(
    ranked: Sequence[Standing], marks: Mapping[str, list[str] | None], frontier: Sequence[str]
) -> str:
    if not frontier:
        return "No planner has a success, so none is marked on pass rate vs tokens per success."
    parts = [f"Pareto-optimal on pass rate vs tokens per success: {_listed(frontier)}"]
    dominated = {s.planner_id: by for s in ranked if (by := marks.get(s.planner_id))}
    if dominated and sum(map(len, dominated.values())) <= _DOMINATORS_NAMED:
        named = "; ".join(f"{planner} by {_listed(by)}" for planner, by in dominated.items())
        parts.append(f"dominated: {named}")
    elif dominated:  # a long list helps no one in a sentence; each dominatedBy has it
        parts.append(f"dominated: {_listed(dominated)} (dominatedBy says by whom)")
    left_out = [s.planner_id for s in ranked if marks.get(s.planner_id) is None]
    if left_out:
        parts.append(f"left out without a success: {_listed(left_out)}")
    return "; ".join(parts) + "."


def _described(standing: Standing) -> str:
    trials = "trial" if standing.trials == 1 else "trials"
    return f"{_percent(standing.rate)} ({_interval(standing)}, {standing.trials} {trials})"


def _interval(standing: Standing) -> str:
    return f"95% Wilson interval {_percent(standing.low)} to {_percent(standing.high)}"


def _percent(value: Fraction | float) -> str:
    return f"{float(value):.1%}"


def _listed(names: Iterable[str]) -> str:
    items = list(names)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
