"""What each step of a journey asks of a planner, read off the pages it goes through.

A journey is read off the walk compile made of it (a
:class:`~automium.journeys.CheckedJourney`), and each step gets the *hazards* its page
holds: the ways an attempt at it can fail, each with a weight (how much it adds to the
planner's per-step error), the failure class its replay events would show, and the
recovery strategies that can undo it. The planner model
(:mod:`automium.benchmark.simulation`) turns them into probabilities; the table is the single
place that says what makes a step hard.

A failure's lane is the lane of the event the run timeline's failing variant of its class
records (:mod:`automium.runs.timeline`): ``action.failed`` and ``action.timed_out`` on the
executor, ``decision.rejected`` on the planner, ``policy.denied`` on the runtime,
``assertion.failed`` on the assertion lane.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from automium.contracts import FailureClass, Intent, ReplayLane
from automium.corpus.pages import Element
from automium.journeys import CheckedJourney, targets
from automium.journeys.page_checks import Visit
from automium.journeys.page_walk import Location

F = FailureClass

LANES: Mapping[FailureClass, ReplayLane] = {
    F.PLANNER_ISSUE: ReplayLane.EXECUTOR,
    F.RUNTIME_GAP: ReplayLane.EXECUTOR,
    F.UNSUPPORTED_INTENT: ReplayLane.PLANNER,
    F.POLICY_DENIAL: ReplayLane.RUNTIME,
    F.PRODUCT_ISSUE: ReplayLane.ASSERTION,
    F.FIXTURE_ISSUE: ReplayLane.RUNTIME,
}
"""The lane of the failing event of each failure class on a modeled timeline."""


@dataclass(frozen=True, slots=True)
class Hazard:
    """One way an attempt at a step can fail."""

    name: str
    weight: float
    """Multiplies the planner's per-step error rate (and its sensitivity to this hazard)."""
    failure_class: FailureClass
    recovered_by: frozenset[str]
    """Recovery strategies that can undo it; none: the trial ends at once."""
    when: str
    """When a step has it, in words (the report's assumptions quote it)."""

    @property
    def lane(self) -> ReplayLane:
        return LANES[self.failure_class]


_RETRY = "retry_step"
_REFRESH = "refresh_snapshot"
_RESTART = "restart_from_route"
_DISMISS = "dismiss_dialog"

DECISION = Hazard(
    "decision",
    1.0,
    F.PLANNER_ISSUE,
    frozenset({_RETRY, _REFRESH, _RESTART}),
    "every step: the planner picks a wrong element, value or route (weight 0.3 for a step "
    "that acts on no element: navigate, go_back, a key or scroll without a target)",
)
NO_ELEMENT_DECISION_WEIGHT = 0.3
HAZARDS: tuple[Hazard, ...] = (
    DECISION,
    Hazard(
        "ambiguous-name",
        2.0,
        F.PLANNER_ISSUE,
        frozenset({_RETRY, _REFRESH}),
        "several visible elements share the target's role and name, so the step needs nth",
    ),
    Hazard(
        "disabled-look-alike",
        1.0,
        F.PLANNER_ISSUE,
        frozenset({_RETRY, _REFRESH}),
        "the page shows a disabled control of the target's role",
    ),
    Hazard(
        "dialog",
        1.5,
        F.PLANNER_ISSUE,
        frozenset({_RETRY, _REFRESH, _DISMISS}),
        "a modal dialog is open or the target is inside a dialog",
    ),
    Hazard(
        "revealed",
        1.0,
        F.PLANNER_ISSUE,
        frozenset({_RETRY, _REFRESH}),
        "the target was hidden when the page loaded and an earlier step revealed it (the "
        "next part of a multi-step form, a status message)",
    ),
    Hazard(
        "secret-field",
        1.0,
        F.POLICY_DENIAL,
        frozenset(),
        "a password field: a planner that types a literal instead of the secretRef is blocked "
        "by the secrets policy",
    ),
    Hazard(
        "one-time-code",
        3.0,
        F.RUNTIME_GAP,
        frozenset({_RETRY, _RESTART}),
        "a one-time-code field: the code arrives out of band and can expire before it is typed",
    ),
    Hazard(
        "iframe",
        2.0,
        F.RUNTIME_GAP,
        frozenset({_RETRY, _RESTART}),
        "the target is inside an iframe, which can be unreachable",
    ),
    Hazard(
        "file-upload",
        1.5,
        F.UNSUPPORTED_INTENT,
        frozenset(),
        "upload_file: the planner can reach for a script to set the file input, outside the "
        "allowed intents",
    ),
    Hazard(
        "assertion",
        0.5,
        F.PRODUCT_ISSUE,
        frozenset({_RETRY, _REFRESH}),
        "each assertion checked after the step (weight per assertion): the end state can "
        "differ from the one expected",
    ),
)
BY_NAME: Mapping[str, Hazard] = {h.name: h for h in HAZARDS}


@dataclass(frozen=True, slots=True)
class StepProfile:
    """One step as the model sees it: its hazards, with their weights at this step."""

    step_id: str
    hazards: tuple[tuple[Hazard, float], ...]
    assertions: int
    """Assertions checked after this step."""


@dataclass(frozen=True, slots=True)
class JourneyProfile:
    """A journey as the model sees it: its steps, and its recovery budget."""

    app_id: str
    journey_id: str
    steps: tuple[StepProfile, ...]
    max_attempts: int
    strategies: frozenset[str]
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # A profile is a cache key of every modeled trial (model.plan); hashing its steps
        # anew for each lookup was a tenth of a small comparison.
        key = (self.app_id, self.journey_id, self.steps, self.max_attempts, self.strategies)
        object.__setattr__(self, "_hash", hash(key))

    def __hash__(self) -> int:
        return self._hash

    @property
    def assertions(self) -> int:
        return sum(step.assertions for step in self.steps)


def journey_profile(checked: CheckedJourney) -> JourneyProfile:
    """The profile of a journey compile accepted, from the walk compile made of it."""
    journey, visits = checked.model, checked.walk.visits
    after: dict[str, int] = {}
    for assertion in journey.assertions:
        after[assertion.after_step] = after.get(assertion.after_step, 0) + 1
    steps = []
    for index, step in enumerate(checked.document["steps"]):
        visit = visits[index] if index < len(visits) else None
        asserted = after.get(str(step["id"]), 0)
        steps.append(StepProfile(str(step["id"]), _hazards(step, visit, asserted), asserted))
    recovery = journey.recovery
    return JourneyProfile(
        app_id=journey.app_id,
        journey_id=journey.id,
        steps=tuple(steps),
        max_attempts=recovery.max_attempts,
        strategies=frozenset(s.value for s in recovery.strategies),
    )


def _hazards(
    step: Mapping[str, Any], visit: Visit | None, assertions: int
) -> tuple[tuple[Hazard, float], ...]:
    element = visit.element if visit is not None else None
    location = visit.before if visit is not None else None
    found: list[tuple[Hazard, float]] = [
        (DECISION, DECISION.weight if element is not None else NO_ELEMENT_DECISION_WEIGHT)
    ]
    if element is not None and location is not None:
        found += [
            (BY_NAME[name], BY_NAME[name].weight) for name in features(step, element, location)
        ]
    if step.get("intent") == Intent.UPLOAD_FILE:
        found.append((BY_NAME["file-upload"], BY_NAME["file-upload"].weight))
    if assertions:
        found.append((BY_NAME["assertion"], BY_NAME["assertion"].weight * assertions))
    return tuple(found)


def features(step: Mapping[str, Any], element: Element, location: Location) -> list[str]:
    """The page hazards of a step acting on ``element`` where the journey is, in table order."""
    view = location.view
    elements = view.template.elements
    name = view.name(element) or element.name
    found = []
    target = step.get("target")
    if isinstance(target, dict) and "role" in target:
        matching = [
            e
            for e in view.elements()
            if targets.matches(e, element.role, name, view) and location.visible(e)
        ]
        if len(matching) > 1:
            found.append("ambiguous-name")
    if any(
        e.index != element.index
        and e.role == element.role
        and "disabled" in view.states[e.index]
        and location.visible(e)
        for e in view.elements()
    ):
        found.append("disabled-look-alike")
    if location.dialog is not None or element.dialog is not None:
        found.append("dialog")
    if any(
        i in location.revealed and i != location.dialog and view.hidden(elements[i])
        for i in (*element.ancestors, element.index)
    ):
        found.append("revealed")
    if element.secret == "password":
        found.append("secret-field")
    elif element.secret == "one-time-code":
        found.append("one-time-code")
    if element.frame is not None:
        found.append("iframe")
    return found
