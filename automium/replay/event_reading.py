"""What a run's replay events show: counts per lane, the first failure, and its class.

Events are taken in ``seq`` order. A step that fails and then passes on retry has
recovered: its failure does not count. The first failure that did not recover is the
run's; the classes of the ``debug_failed_run`` taxonomy are decided from the events, by
the first of these rules that holds (each names the events it rests on):

==================== ===========================================================================
class                rule
==================== ===========================================================================
policy_denial        the run is blocked and a ``policy.denied`` event shows the policy
fixture_issue        a ``fixture.check_failed`` event: the starting state was not the fixture's
unsupported_intent   a ``decision.rejected`` event: the adapter refused an intent not allowed
runtime_gap          ``action.timed_out`` or ``runtime.crashed``: the runtime could not do it
planner_issue        an ``action.failed`` after a ``decision.made``: the planner chose wrong
product_issue        an ``assertion.failed`` while every action succeeded
==================== ===========================================================================

Events of another run are refused (``event_run_mismatch``), and so are events whose final
outcome disagrees with the verdict (``event_verdict_mismatch``): a ``run.finished`` with
another verdict, or a passed run with a failure that never recovered; a ``run.finished``
whose ``retryCount`` is not the run's (``event_retry_mismatch``); and any event after
``worker.released``, once the worker let the run go (``event_after_release``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from automium.contracts import ErrorCode, EventType, FailureClass, ReplayEvent, ReplayLane, Verdict
from automium.errors import Problem, pointer, quoted
from automium.replay.events import event_problems

FAILING = frozenset(
    {
        EventType.ACTION_FAILED,
        EventType.ACTION_TIMED_OUT,
        EventType.ASSERTION_FAILED,
        EventType.DECISION_REJECTED,
        EventType.FIXTURE_CHECK_FAILED,
        EventType.POLICY_DENIED,
        EventType.RUNTIME_CRASHED,
    }
)
# What makes a failure recovered: a later success of the same step or assertion. A step
# whose action failed, timed out or was rejected recovers when a later attempt performs it.
_RECOVERS = {
    EventType.ACTION_FAILED: EventType.ACTION_PERFORMED,
    EventType.ACTION_TIMED_OUT: EventType.ACTION_PERFORMED,
    EventType.DECISION_REJECTED: EventType.ACTION_PERFORMED,
    EventType.ASSERTION_FAILED: EventType.ASSERTION_PASSED,
}


@dataclass(frozen=True, slots=True)
class Classification:
    failure_class: FailureClass
    rule: str
    event_seqs: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Digest:
    events: int
    lanes: Mapping[str, int]
    first_failure: ReplayEvent | None
    classification: Classification | None


def problems(
    run_id: str, verdict: Verdict, events: Sequence[ReplayEvent], retry_count: int = 0
) -> list[Problem]:
    """Why ``events`` cannot be the replay of run ``run_id`` with ``verdict`` and
    ``retry_count`` retries, if they cannot."""
    found = [
        Problem(
            ErrorCode.EVENT_RUN_MISMATCH,
            f"event {index} belongs to run {quoted(event.run_id)}, not {run_id}; give only "
            "events of this run",
            pointer("events", index, "runId"),
            (run_id,),
        )
        for index, event in enumerate(events)
        if event.run_id != run_id
    ]
    found += [_under_events(p) for p in event_problems(events)]
    for index, event in enumerate(events):
        if event.verdict is not None and event.verdict != verdict:
            found.append(
                Problem(
                    ErrorCode.EVENT_VERDICT_MISMATCH,
                    f"event {index} ends the run {event.verdict}, not {verdict}",
                    pointer("events", index, "verdict"),
                    (verdict.value,),
                )
            )
    found += _retries_contradicted(events, retry_count) + _after_release(events)
    unrecovered = _unrecovered(events)
    if verdict is Verdict.PASSED and unrecovered:
        index = list(events).index(unrecovered[0])
        found.append(
            Problem(
                ErrorCode.EVENT_VERDICT_MISMATCH,
                f"event {index} ({unrecovered[0].type}) is a failure that never recovered, "
                "so the run did not pass",
                pointer("events", index, "type"),
            )
        )
    return found


def _retries_contradicted(events: Sequence[ReplayEvent], retry_count: int) -> list[Problem]:
    return [
        Problem(
            ErrorCode.EVENT_RETRY_MISMATCH,
            f"event {index} ends the run after {quoted(event.payload.get('retryCount'))} "
            f"retries, but retryCount is {retry_count}; give the run's own retryCount",
            pointer("events", index, "payload", "retryCount"),
            (retry_count,),
        )
        for index, event in enumerate(events)
        if event.type == EventType.RUN_FINISHED
        and "retryCount" in event.payload
        and event.payload["retryCount"] != retry_count
    ]


def _after_release(events: Sequence[ReplayEvent]) -> list[Problem]:
    released = min((e.seq for e in events if e.type == EventType.WORKER_RELEASED), default=None)
    if released is None:
        return []
    return [
        Problem(
            ErrorCode.EVENT_AFTER_RELEASE,
            f"event {index} ({event.type}, seq {event.seq}) comes after worker.released "
            f"(seq {released}); nothing happens in a run once its worker let it go",
            pointer("events", index, "seq"),
        )
        for index, event in enumerate(events)
        if event.seq > released
    ]


def digest(verdict: Verdict, events: Sequence[ReplayEvent]) -> Digest:
    """The digest of events that :func:`problems` accepted."""
    ordered = sorted(events, key=lambda e: e.seq)
    counts = Counter(e.lane for e in ordered)
    unrecovered = _unrecovered(ordered)
    classified = None if verdict is Verdict.PASSED else _classify(verdict, ordered, unrecovered)
    return Digest(
        events=len(ordered),
        lanes={lane.value: counts.get(lane, 0) for lane in ReplayLane},
        first_failure=unrecovered[0] if unrecovered else None,
        classification=classified,
    )


def _unrecovered(events: Sequence[ReplayEvent]) -> list[ReplayEvent]:
    ordered = sorted(events, key=lambda e: e.seq)
    failures = []
    for index, event in enumerate(ordered):
        if event.type not in FAILING:
            continue
        recovery = _RECOVERS.get(event.type)
        subject = _subject(event)
        if recovery and any(
            later.type == recovery and _subject(later) == subject for later in ordered[index + 1 :]
        ):
            continue
        failures.append(event)
    return failures


def _subject(event: ReplayEvent) -> tuple[str | None, object]:
    return event.step_id, event.payload.get("assertionId")


Rule = Callable[[Verdict, Sequence[ReplayEvent], Sequence[ReplayEvent]], list[ReplayEvent]]


def _of_type(*types: EventType) -> Rule:
    return lambda _verdict, _events, unrecovered: [e for e in unrecovered if e.type in types]


def _policy(
    verdict: Verdict, events: Sequence[ReplayEvent], _u: Sequence[ReplayEvent]
) -> list[ReplayEvent]:
    return (
        [e for e in events if e.type == EventType.POLICY_DENIED]
        if verdict is Verdict.BLOCKED
        else []
    )


def _planner(
    _v: Verdict, events: Sequence[ReplayEvent], unrecovered: Sequence[ReplayEvent]
) -> list[ReplayEvent]:
    # Each failed action with the decision it carried out (its step's last decision.made
    # before it), in seq order.
    shown: dict[int, ReplayEvent] = {}
    for failed in (e for e in unrecovered if e.type == EventType.ACTION_FAILED):
        decided = [
            e
            for e in events
            if e.type == EventType.DECISION_MADE
            and e.step_id == failed.step_id
            and e.seq < failed.seq
        ]
        if decided:
            shown |= {decided[-1].seq: decided[-1], failed.seq: failed}
    return [shown[seq] for seq in sorted(shown)]


def _product(
    _v: Verdict, _events: Sequence[ReplayEvent], unrecovered: Sequence[ReplayEvent]
) -> list[ReplayEvent]:
    failed = [e for e in unrecovered if e.type == EventType.ASSERTION_FAILED]
    actions_ok = not any(
        e.type in (EventType.ACTION_FAILED, EventType.ACTION_TIMED_OUT) for e in unrecovered
    )
    return failed if actions_ok else []


_RULES: tuple[tuple[FailureClass, str, Rule], ...] = (
    (FailureClass.POLICY_DENIAL, "the run is blocked and a policy denied an action", _policy),
    (
        FailureClass.FIXTURE_ISSUE,
        "the starting state was not the fixture's (fixture.check_failed)",
        _of_type(EventType.FIXTURE_CHECK_FAILED),
    ),
    (
        FailureClass.UNSUPPORTED_INTENT,
        "the adapter rejected a decision outside the allowed intents (decision.rejected)",
        _of_type(EventType.DECISION_REJECTED),
    ),
    (
        FailureClass.RUNTIME_GAP,
        "the runtime could not carry out an action (action.timed_out or runtime.crashed)",
        _of_type(EventType.ACTION_TIMED_OUT, EventType.RUNTIME_CRASHED),
    ),
    (
        FailureClass.PLANNER_ISSUE,
        "an action failed on the element the planner decided on (decision.made, action.failed)",
        _planner,
    ),
    (
        FailureClass.PRODUCT_ISSUE,
        "an assertion failed while every action succeeded (assertion.failed)",
        _product,
    ),
)


def _classify(
    verdict: Verdict, events: Sequence[ReplayEvent], unrecovered: Sequence[ReplayEvent]
) -> Classification | None:
    for failure_class, rule, evidence in _RULES:
        shown = evidence(verdict, events, unrecovered)
        if shown:
            return Classification(failure_class, rule, tuple(e.seq for e in shown))
    return None


def _under_events(problem: Problem) -> Problem:
    return Problem(problem.code, problem.message, "/events" + problem.path, problem.allowed)
