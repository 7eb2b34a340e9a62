"""The modeled timeline of a run: the ``replay-event.v1`` stream a run of a journey would emit.

Nothing runs. The timeline follows the journey through its pages (the same walk compile
does) and, per step, writes the events each lane would record: the worker's lease, the
fixture applied, a planner request and decision (a ``PlannerRequest`` and a
``PlannerDecision`` of ``planner-adapter.v1``, flattened into the payload), the executor's
action, the page loading or changing, the assertions checked after the step, the
artifacts the verdict requires, and the run's end with its verdict.

Timing and tokens follow the benchmark's planner model (``automium.planner_costs``):
a decision takes ``STEP_LATENCY_MS`` x the planner's speed, split 70/30 between planner and
executor, an assertion ``ASSERTION_LATENCY_MS``; a decision costs
``INPUT_TOKENS_PER_DECISION`` input tokens and ``OUTPUT_TOKENS_PER_DECISION`` x verbosity
output tokens. No jitter: a timeline depends only on the journey, the planner and the
failure asked for, so it is computed once per journey and planner and cached.

A *failing variant* injects one failure at one step, as the events of its class show it:

================== ============================================================ =========
class              what the events show                                         verdict
================== ============================================================ =========
product_issue      the step's actions succeed, an assertion after it fails      failed
planner_issue      the planner picks another element; the action fails, retried failed
unsupported_intent the adapter rejects a decision outside the allowed intents   errored
policy_denial      a safety policy blocks the action                            blocked
runtime_gap        the action times out (in a frame: the frame is unreachable)  errored
fixture_issue      the page is not the fixture's starting state                 errored
================== ============================================================ =========
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from automium.contracts import (
    EventType,
    FailureClass,
    Intent,
    NavigateStep,
    PressKeyStep,
    ReplayLane,
    SemanticLocator,
    SnapshotRef,
    Step,
    TimelineSummary,
    Verdict,
)
from automium.journeys import CheckedJourney
from automium.journeys.node_captions import step_label
from automium.journeys.page_checks import Visit
from automium.journeys.steps import secret_ref_of, target_of, value_of
from automium.planner_costs import (
    ASSERTION_LATENCY_MS,
    INPUT_TOKENS_PER_DECISION,
    MODELED_ACTION_TIMEOUT_MS,
    OUTPUT_TOKENS_PER_DECISION,
    STEP_LATENCY_MS,
    planner_traits,
)
from automium.replay.recording import Event, ModeledClock, Recorder
from automium.replay.summary import required_kinds

_VERDICTS: Mapping[FailureClass, Verdict] = {
    FailureClass.PRODUCT_ISSUE: Verdict.FAILED,
    FailureClass.PLANNER_ISSUE: Verdict.FAILED,
    FailureClass.UNSUPPORTED_INTENT: Verdict.ERRORED,
    FailureClass.POLICY_DENIAL: Verdict.BLOCKED,
    FailureClass.RUNTIME_GAP: Verdict.ERRORED,
    FailureClass.FIXTURE_ISSUE: Verdict.ERRORED,
}
ALLOWED_INTENTS = ",".join(intent.value for intent in Intent)
"""What a planner request allows, modeled or real: every intent of the vocabulary."""
# What an artifact of each kind is called in a run's folder, and its media type.
ARTIFACT_FILES: Mapping[str, tuple[str, str]] = {
    "screenshot": ("screenshots/final.png", "image/png"),
    "video": ("video.webm", "video/webm"),
    "trace": ("trace.zip", "application/zip"),
    "semantic-snapshot": ("snapshots/final.json", "application/json"),
    "dom-snapshot": ("snapshots/final.html", "text/html"),
    "replay-log": ("replay.jsonl", "application/jsonl"),
    "console-log": ("console.log", "text/plain"),
    "network-har": ("network.har", "application/json"),
    "planner-transcript": ("planner-transcript.jsonl", "application/jsonl"),
}


@dataclass(frozen=True, slots=True)
class Timeline:
    """A modeled timeline: its events in seq order, and what they add up to."""

    events: tuple[Event, ...]
    verdict: Verdict
    steps: int
    failure: tuple[str, FailureClass] | None
    not_known: tuple[str, ...]
    """Assertions the model cannot settle (compile's unchecked ones): neither passed nor
    failed on this timeline."""
    summary: TimelineSummary = field(init=False, repr=False, compare=False)
    """What a submission reports of it; made once, with the timeline (both are cached)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "summary", self._summarized())

    def lanes(self) -> dict[str, int]:
        counts = Counter(str(e["lane"]) for e in self.events)
        return {lane.value: counts.get(lane.value, 0) for lane in ReplayLane}

    def _summarized(self) -> TimelineSummary:
        retries = next(
            int(e["payload"].get("retryCount", 0))
            for e in self.events
            if e["type"] == EventType.RUN_FINISHED
        )
        summary: dict[str, Any] = {
            "events": len(self.events),
            "lanes": self.lanes(),
            "steps": self.steps,
            "verdict": self.verdict,
            "requiredArtifactKinds": required_kinds(self.verdict, retries),
        }
        if self.failure is not None:
            step_id, failure_class = self.failure
            summary["failure"] = {"stepId": step_id, "failureClass": failure_class}
        if self.not_known:
            summary["assertionsNotKnown"] = list(self.not_known)
        return TimelineSummary.model_validate(summary)


class _Clock:
    """The modeled clock, and the one recorder its events go to."""

    def __init__(self, run_id: str) -> None:
        self.time = ModeledClock()
        self.recorder = Recorder(run_id, self.time)
        self.events = self.recorder.events

    def emit(
        self,
        lane: ReplayLane,
        kind: EventType,
        payload: Mapping[str, Any],
        *,
        step: str | None = None,
        after_ms: int = 0,
        verdict: Verdict | None = None,
    ) -> Event:
        self.time.advance(after_ms)
        return self.recorder.emit(lane, kind, payload, step=step, verdict=verdict)


def decision_of(step: Step, planner_id: str, label: str, *, wrong: bool = False) -> dict[str, Any]:
    """What a planner decides for ``step`` (``planner-adapter.v1``'s decision, without its
    costs): the step's own intent, target and value, never a secret's value. ``wrong``: the
    planner picked another element than the step's (a modeled planner failure)."""
    target = target_of(step)
    locator = target if isinstance(target, SemanticLocator) else None
    secret_ref = secret_ref_of(step)
    return {
        "plannerId": planner_id,
        "intent": step.intent,
        "targetRole": locator.role if locator else None,
        "targetName": (
            f"{locator.name if locator else ''} (another element)"
            if wrong
            else (locator.name if locator else None)
        ),
        "targetNth": locator.nth if locator else None,
        "targetRef": target.ref if isinstance(target, SnapshotRef) else None,
        "value": None if secret_ref else value_of(step),
        "secretRef": secret_ref,
        "route": step.route if isinstance(step, NavigateStep) else None,
        "entity": step.entity if isinstance(step, NavigateStep) else None,
        "key": step.key if isinstance(step, PressKeyStep) else None,
        "rationale": f"Step {step.id}: {label}"[:200],
    }


def timeline(
    run_id: str,
    journey: CheckedJourney,
    planner: tuple[str, str, str],
    environment_profile_id: str,
    failure: tuple[str, FailureClass] | None = None,
) -> Timeline:
    """The modeled timeline of ``journey`` run by ``planner`` (id, vendor, model);
    ``failure`` is (step id, class)."""
    by_ref = _ByRef(journey.ref, journey)
    return _cached(run_id, by_ref, planner, environment_profile_id, failure)


@dataclass(frozen=True, slots=True)
class _ByRef:
    """A journey as a cache key: its ref, the digest of everything a timeline depends on."""

    ref: str
    journey: CheckedJourney = field(compare=False)


@lru_cache(maxsize=256)
def _cached(
    run_id: str,
    journey: _ByRef,
    planner: tuple[str, str, str],
    environment_profile_id: str,
    failure: tuple[str, FailureClass] | None,
) -> Timeline:
    return _Modeler(run_id, journey.journey, planner, environment_profile_id, failure).run()


class _Modeler:
    def __init__(
        self,
        run_id: str,
        checked: CheckedJourney,
        planner: tuple[str, str, str],
        environment_profile_id: str,
        failure: tuple[str, FailureClass] | None,
    ) -> None:
        self.clock = _Clock(run_id)
        self.journey = checked.model
        self.planner_id = planner[0]
        self.profile = planner_traits(planner[1], planner[2])
        self.environment_profile_id = environment_profile_id
        self.failure = failure
        self.labels = {step["id"]: step_label(step) for step in checked.document["steps"]}
        self.visits: tuple[Visit, ...] = tuple(checked.walk.visits)
        self.not_known = checked.unchecked_assertions()
        self.reported: list[str] = []
        self.retries = 0

    def run(self) -> Timeline:
        L = ReplayLane
        clock = self.clock
        clock.emit(
            L.WORKER,
            EventType.WORKER_LEASED,
            {"workerId": "modeled-worker", "environmentProfileId": self.environment_profile_id},
        )
        clock.emit(
            L.RUNTIME,
            EventType.FIXTURE_APPLIED,
            {"fixtureId": self.journey.fixture_id},
            after_ms=400,
        )
        verdict = Verdict.PASSED
        steps = 0
        for step, visit in zip(self.journey.steps, self.visits, strict=True):
            steps += 1
            injected = self.failure[1] if self.failure and self.failure[0] == step.id else None
            ended = self._step(step, visit, injected)
            if ended is not None:
                verdict = ended
                break
        self._artifacts(verdict)
        clock.emit(
            L.WORKER,
            EventType.RUN_FINISHED,
            {"retryCount": self.retries},
            after_ms=100,
            verdict=verdict,
        )
        clock.emit(L.WORKER, EventType.WORKER_RELEASED, {"workerId": "modeled-worker"}, after_ms=50)
        return Timeline(tuple(clock.events), verdict, steps, self.failure, tuple(self.reported))

    def _step(self, step: Step, visit: Visit, injected: FailureClass | None) -> Verdict | None:
        L = ReplayLane
        clock = self.clock
        if injected is FailureClass.FIXTURE_ISSUE:
            clock.emit(
                L.RUNTIME,
                EventType.FIXTURE_CHECK_FAILED,
                {"reason": f"the page is not {self.journey.fixture_id}'s starting state"},
                step=step.id,
                after_ms=200,
            )
            return _VERDICTS[injected]
        self._decide(step, visit, wrong=injected is FailureClass.PLANNER_ISSUE)
        if injected is FailureClass.UNSUPPORTED_INTENT:
            clock.emit(
                L.PLANNER,
                EventType.DECISION_REJECTED,
                {"intent": "execute_script", "reason": "intent_not_allowed"},
                step=step.id,
                after_ms=20,
            )
            return _VERDICTS[injected]
        if injected is FailureClass.POLICY_DENIAL:
            clock.emit(
                L.RUNTIME,
                EventType.POLICY_DENIED,
                {"policy": "model-only-sandbox", "intent": step.intent},
                step=step.id,
                after_ms=20,
            )
            return _VERDICTS[injected]
        if injected in (FailureClass.PLANNER_ISSUE, FailureClass.RUNTIME_GAP):
            return self._failing_action(step, visit, injected)
        clock.emit(
            L.EXECUTOR,
            EventType.ACTION_PERFORMED,
            {
                "intent": step.intent,
                "ref": visit.element.ref if visit.element else None,
                "attempt": 1,
            },
            step=step.id,
            after_ms=self._action_ms(),
        )
        self._page(step, visit)
        return self._assertions(step, product_issue=injected is FailureClass.PRODUCT_ISSUE)

    def _decide(self, step: Step, visit: Visit, *, wrong: bool, attempt: int = 1) -> None:
        L = ReplayLane
        before = visit.before
        self.clock.emit(
            L.PLANNER,
            EventType.DECISION_REQUESTED,
            {
                "goal": self.journey.goal[:200],
                "route": before.route if before else None,
                "allowedIntents": ALLOWED_INTENTS,
                "snapshotNodes": sum(1 for e in before.view.elements() if before.visible(e))
                if before
                else None,
                "attempt": attempt,
            },
            step=step.id,
        )
        decision = {
            **decision_of(step, self.planner_id, self.labels[step.id], wrong=wrong),
            "inputTokens": INPUT_TOKENS_PER_DECISION,
            "outputTokens": round(OUTPUT_TOKENS_PER_DECISION * self.profile.verbosity),
            "latencyMs": self._decision_ms(),
        }
        self.clock.emit(
            L.PLANNER, EventType.DECISION_MADE, decision, step=step.id, after_ms=self._decision_ms()
        )

    def _failing_action(self, step: Step, visit: Visit, injected: FailureClass) -> Verdict:
        L = ReplayLane
        in_frame = visit.element is not None and visit.element.frame is not None
        attempts = self.journey.recovery.max_attempts
        for attempt in range(1, attempts + 1):
            if attempt > 1:
                self.retries += 1
                self._decide(
                    step, visit, wrong=injected is FailureClass.PLANNER_ISSUE, attempt=attempt
                )
            if injected is FailureClass.PLANNER_ISSUE:
                self.clock.emit(
                    L.EXECUTOR,
                    EventType.ACTION_FAILED,
                    {"intent": step.intent, "reason": "target_not_found", "attempt": attempt},
                    step=step.id,
                    after_ms=self._action_ms(),
                )
            else:
                self.clock.emit(
                    L.EXECUTOR,
                    EventType.ACTION_TIMED_OUT,
                    {
                        "intent": step.intent,
                        "timeoutMs": MODELED_ACTION_TIMEOUT_MS,
                        "reason": "frame_unreachable" if in_frame else "no_response",
                        "attempt": attempt,
                    },
                    step=step.id,
                    after_ms=MODELED_ACTION_TIMEOUT_MS,
                )
        return _VERDICTS[injected]

    def _page(self, step: Step, visit: Visit) -> None:
        for change in visit.happened:
            if change.kind in ("load", "back"):
                entity = visit.after.view.entity if visit.after else None
                payload = {
                    "route": change.route,
                    "entity": entity,
                    "redirectedFrom": change.redirected_from,
                }
                self.clock.emit(
                    ReplayLane.RUNTIME, EventType.PAGE_LOADED, payload, step=step.id, after_ms=300
                )
            else:
                payload = {"change": str(change)[:200]}
                self.clock.emit(
                    ReplayLane.RUNTIME, EventType.PAGE_CHANGED, payload, step=step.id, after_ms=100
                )

    def _assertions(self, step: Step, *, product_issue: bool) -> Verdict | None:
        L = ReplayLane
        checks = [a for a in self.journey.assertions if a.after_step == step.id]
        for index, assertion in enumerate(checks):
            failing = product_issue and index == 0
            if not failing and assertion.id in self.not_known:
                # The model cannot say: a run's outcome, not a modeled pass.
                self.reported.append(assertion.id)
                self.clock.emit(
                    L.ASSERTION,
                    EventType.ASSERTION_UNKNOWN,
                    {
                        "assertionId": assertion.id,
                        "kind": assertion.kind,
                        "reason": "not known (modeled): only a real run (automium run) can say",
                    },
                    step=step.id,
                    after_ms=ASSERTION_LATENCY_MS,
                )
                continue
            if not failing:
                self.clock.emit(
                    L.ASSERTION,
                    EventType.ASSERTION_PASSED,
                    {"assertionId": assertion.id, "kind": assertion.kind},
                    step=step.id,
                    after_ms=ASSERTION_LATENCY_MS,
                )
                continue
            for attempt in range(1, self.journey.recovery.max_attempts + 1):
                self.retries += attempt > 1
                self.clock.emit(
                    L.ASSERTION,
                    EventType.ASSERTION_FAILED,
                    {
                        "assertionId": assertion.id,
                        "kind": assertion.kind,
                        "reason": "the page did not show what the assertion expects",
                        "attempt": attempt,
                    },
                    step=step.id,
                    after_ms=ASSERTION_LATENCY_MS,
                )
            return Verdict.FAILED
        if product_issue and not checks:
            # No assertion follows the step: the failure shows on the step's own outcome.
            self.clock.emit(
                L.ASSERTION,
                EventType.ASSERTION_FAILED,
                {
                    "assertionId": f"{step.id}-outcome",
                    "kind": "visible",
                    "reason": "the step's outcome did not appear",
                },
                step=step.id,
                after_ms=ASSERTION_LATENCY_MS,
            )
            return Verdict.FAILED
        return None

    def _artifacts(self, verdict: Verdict) -> None:
        for kind in required_kinds(verdict, self.retries):
            path, content_type = ARTIFACT_FILES[kind.value]
            self.clock.emit(
                ReplayLane.ARTIFACT,
                EventType.ARTIFACT_CAPTURED,
                {"kind": kind.value, "path": path, "contentType": content_type},
                after_ms=20,
            )

    def _decision_ms(self) -> int:
        return round(STEP_LATENCY_MS * 0.7 * self.profile.speed)

    def _action_ms(self) -> int:
        return round(STEP_LATENCY_MS * 0.3 * self.profile.speed)
