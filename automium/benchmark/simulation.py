"""The deterministic planner model: where v1 trials come from, since nothing is executed.

Every number below is an assumption, not a measurement of any real planner. The report
repeats these assumptions word for word in ``modeled.assumptions`` (``ASSUMPTIONS``):

- Trials are modeled, not executed: a trial runs its journey's steps in order, on the pages
  compile walks them through, and its outcome, latency and tokens are drawn from the sha256
  digest of the corpus version, journey id and repetition index, so the same request always
  gives the same trials, and every planner the same ones: a model cannot tell planners
  apart, whatever their id, vendor or model.
- One set of modeled planner traits serves every planner: skill (the chance an attempt at a
  plain step succeeds) drawn from [0.92, 0.985], speed factor from [0.75, 1.35], verbosity
  from [0.8, 1.4], and the sensitivity to each hazard but decision from [0.5, 1.5]; they
  say nothing about any real model.
- An attempt at a step fails with probability (1 - skill) times the sum of its hazards'
  weights, each but decision times the planner's sensitivity to it, capped at 0.9; which
  hazard failed is drawn in proportion to those terms, and gives the failure its class and
  lane.
- Hazard decision (weight 1, planner_issue, executor lane, recovered by refresh_snapshot,
  restart_from_route, retry_step): every step: the planner picks a wrong element, value or
  route (weight 0.3 for a step that acts on no element: navigate, go_back, a key or scroll
  without a target).
- Hazard ambiguous-name (weight 2, planner_issue, executor lane, recovered by
  refresh_snapshot, retry_step): several visible elements share the target's role and name,
  so the step needs nth.
- Hazard disabled-look-alike (weight 1, planner_issue, executor lane, recovered by
  refresh_snapshot, retry_step): the page shows a disabled control of the target's role.
- Hazard dialog (weight 1.5, planner_issue, executor lane, recovered by dismiss_dialog,
  refresh_snapshot, retry_step): a modal dialog is open or the target is inside a dialog.
- Hazard revealed (weight 1, planner_issue, executor lane, recovered by refresh_snapshot,
  retry_step): the target was hidden when the page loaded and an earlier step revealed it
  (the next part of a multi-step form, a status message).
- Hazard secret-field (weight 1, policy_denial, runtime lane, recovered by nothing: the
  trial ends at once): a password field: a planner that types a literal instead of the
  secretRef is blocked by the secrets policy.
- Hazard one-time-code (weight 3, runtime_gap, executor lane, recovered by
  restart_from_route, retry_step): a one-time-code field: the code arrives out of band and
  can expire before it is typed.
- Hazard iframe (weight 2, runtime_gap, executor lane, recovered by restart_from_route,
  retry_step): the target is inside an iframe, which can be unreachable.
- Hazard file-upload (weight 1.5, unsupported_intent, planner lane, recovered by nothing:
  the trial ends at once): upload_file: the planner can reach for a script to set the file
  input, outside the allowed intents.
- Hazard assertion (weight 0.5, product_issue, assertion lane, recovered by
  refresh_snapshot, retry_step): each assertion checked after the step (weight per
  assertion): the end state can differ from the one expected.
- A failed attempt is retried when the journey's recovery.strategies hold a strategy that
  recovers its hazard, up to recovery.maxAttempts attempts of the step in all (maxAttempts 1
  never retries); each retry succeeds with probability 0.6 * (1 - the step's failure
  probability). A recovered step counts as completed and the trial goes on; otherwise the
  trial ends failed at that step, the later steps not attempted.
- Latency is (1500 ms per step reached + 2500 ms per retry) * speed factor + 200 ms per
  assertion checked + 30000 ms (the action timeout) per runtime_gap attempt that failed,
  times a uniform jitter of +/-20%.
- Tokens: one planner decision per step reached and per retry, each with 2400 input tokens
  (snapshot, goal and history) and 90 output tokens * verbosity, each total with a uniform
  jitter of +/-10%.

How the numbers are drawn: the trial digest's 32 bytes are read as eight big-endian 32-bit
words, each divided by 2**32 to give a uniform draw in [0, 1); words 0-2 give the latency,
input token and output token jitter, and the rest are taken in order as the trial needs them,
continuing with the words of the sha256 of the previous 32 bytes when they run out. From the
step it is at, one word picks the step whose attempt fails first, by inverting the chance of
getting that far (the same distribution as one draw per step, in O(log steps)); where the
word falls within that step's share picks the hazard; each retry takes one word. Planner
traits come the same way from a digest of vendor and model alone (the sensitivities from a
second, sha512 digest). No global random state and no clock is used, so the model is
reproducible across processes and machines.
"""

from __future__ import annotations

import bisect
import hashlib
import struct
from dataclasses import dataclass, field
from functools import cache, lru_cache

from automium.benchmark.step_hazards import DECISION, HAZARDS, JourneyProfile
from automium.benchmark.trials import Trial
from automium.contracts import FailureClass
from automium.planner_costs import (
    ASSERTION_LATENCY_MS,
    INPUT_TOKENS_PER_DECISION,
    OUTPUT_TOKENS_PER_DECISION,
    SKILL_RANGE,
    SPEED_RANGE,
    STEP_LATENCY_MS,
    VERBOSITY_RANGE,
    planner_name,
    planner_traits,
)
from automium.planner_costs import MODELED_ACTION_TIMEOUT_MS as ACTION_TIMEOUT_MS
from automium.planner_costs import WORD_SPAN as _WORD_SPAN
from automium.planner_costs import canonical as _canonical
from automium.planner_costs import sha256_of as _sha256
from automium.planner_costs import within as _within

# Planner traits, each drawn uniformly in [low, high] (skill, speed and verbosity: from the
# vendor+model digest of automium.planner_costs).
SENSITIVITY_RANGE = (0.5, 1.5)  # multiplier of a hazard's weight, per hazard but decision

MAX_STEP_FAILURE = 0.9  # no step is certain to fail; keeps pass^k informative
RECOVERY_EFFICACY = 0.6  # a retry succeeds with this times the step's success probability

# Latency, in milliseconds (a step's, an assertion's and a timeout's: automium.planner_costs).
RECOVERY_ATTEMPT_LATENCY_MS = 2500  # a fresh snapshot, a decision and the retried action
LATENCY_JITTER = 0.2  # relative half-width of the uniform latency jitter

# Tokens, per planner decision (input and output: automium.planner_costs).
TOKEN_JITTER = 0.1  # relative half-width of the uniform token jitter (snapshots vary in size)

_WORDS = struct.Struct(">8I")
_WORDS_512 = struct.Struct(">16I")
_JITTER_WORDS = 3


def _strategies(names: frozenset[str]) -> str:
    return ", ".join(sorted(names)) if names else "nothing: the trial ends at once"


ASSUMPTIONS: tuple[str, ...] = (
    "Trials are modeled, not executed: a trial runs its journey's steps in order, on the "
    "pages compile walks them through, and its outcome, latency and tokens are drawn from the "
    "sha256 digest of the corpus version, journey id and repetition index, so the same "
    "request always gives the same trials, and every planner the same ones: a model cannot "
    "tell planners apart, whatever their id, vendor or model.",
    "One set of modeled planner traits serves every planner: skill (the chance an attempt at "
    f"a plain step succeeds) drawn from [{SKILL_RANGE[0]:g}, {SKILL_RANGE[1]:g}], speed "
    f"factor from [{SPEED_RANGE[0]:g}, {SPEED_RANGE[1]:g}], verbosity from "
    f"[{VERBOSITY_RANGE[0]:g}, {VERBOSITY_RANGE[1]:g}], and the sensitivity to each hazard "
    f"but decision from [{SENSITIVITY_RANGE[0]:g}, {SENSITIVITY_RANGE[1]:g}]; they say "
    "nothing about any real model.",
    "An attempt at a step fails with probability (1 - skill) times the sum of its hazards' "
    "weights, each but decision times the planner's sensitivity to it, capped at "
    f"{MAX_STEP_FAILURE:g}; which hazard failed is drawn in proportion to those terms, and "
    "gives the failure its class and lane.",
    *(
        f"Hazard {h.name} (weight {h.weight:g}, {h.failure_class.value}, {h.lane.value} lane, "
        f"recovered by {_strategies(h.recovered_by)}): {h.when}."
        for h in HAZARDS
    ),
    "A failed attempt is retried when the journey's recovery.strategies hold a strategy that "
    "recovers its hazard, up to recovery.maxAttempts attempts of the step in all (maxAttempts "
    f"1 never retries); each retry succeeds with probability {RECOVERY_EFFICACY:g} * (1 - the "
    "step's failure probability). A recovered step counts as completed and the trial goes on; "
    "otherwise the trial ends failed at that step, the later steps not attempted.",
    f"Latency is ({STEP_LATENCY_MS} ms per step reached + {RECOVERY_ATTEMPT_LATENCY_MS} ms per "
    f"retry) * speed factor + {ASSERTION_LATENCY_MS} ms per assertion checked + "
    f"{ACTION_TIMEOUT_MS} ms (the action timeout) per runtime_gap attempt that failed, times a "
    f"uniform jitter of +/-{LATENCY_JITTER:.0%}.",
    "Tokens: one planner decision per step reached and per retry, each with "
    f"{INPUT_TOKENS_PER_DECISION} input tokens (snapshot, goal and history) and "
    f"{OUTPUT_TOKENS_PER_DECISION} output tokens * verbosity, each total with a uniform "
    f"jitter of +/-{TOKEN_JITTER:.0%}.",
)


@dataclass(frozen=True, slots=True)
class PlannerProfile:
    """A planner as the model sees it: its identity and its modeled traits."""

    planner_id: str
    vendor: str
    model: str
    skill: float
    speed: float
    verbosity: float
    sensitivity: tuple[tuple[str, float], ...]
    """(hazard name, multiplier) for every hazard; decision's is always 1."""
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Half of plan()'s cache key, looked up once per journey of a comparison.
        key = (self.planner_id, self.vendor, self.model, self.skill, self.sensitivity)
        object.__setattr__(self, "_hash", hash(key))

    def __hash__(self) -> int:
        return self._hash


MODELED_PLANNER = ("modeled", "modeled", "modeled")
"""The identity every modeled trial is drawn for (:func:`modeled_planner`)."""


@cache
def modeled_planner() -> PlannerProfile:
    """The traits every planner of a modeled comparison shares."""
    return planner_profile(*MODELED_PLANNER)


@lru_cache(maxsize=64)  # a request names at most 8 planners, and an agent reuses its own
def planner_profile(planner_id: str, vendor: str, model: str) -> PlannerProfile:
    """The modeled traits of a planner; the same vendor and model give the same traits."""
    name = planner_name(vendor, model)
    traits = planner_traits(vendor, model)
    s = _uniforms_512(
        hashlib.sha512(_canonical(["automium.planner-sensitivity/v1", *name])).digest()
    )
    others = [h for h in HAZARDS if h is not DECISION]
    return PlannerProfile(
        planner_id=planner_id,
        vendor=vendor,
        model=model,
        skill=traits.skill,
        speed=traits.speed,
        verbosity=traits.verbosity,
        sensitivity=(
            (DECISION.name, 1.0),
            *((h.name, _within(SENSITIVITY_RANGE, s[i])) for i, h in enumerate(others)),
        ),
    )


def trial_seed(
    *,
    corpus_version: str,
    journey_id: str,
    planner_id: str,
    vendor: str,
    model: str,
    repetition: int,
) -> bytes:
    """The 32-byte digest a trial's numbers are drawn from.

    The material is the compact JSON array of the six values, so no choice of names can make
    two different trials hash the same bytes.
    """
    return _sha256([corpus_version, journey_id, planner_id, vendor, model, repetition])


@dataclass(frozen=True, slots=True)
class _StepPlan:
    """One step for one planner: how its attempts fail, and what a failure costs."""

    step_id: str
    shares: tuple[float, ...]  # cumulative share of each hazard in the step's failures
    hazards: tuple[tuple[FailureClass, str, bool], ...]  # (class, lane, retried)
    retry_success: float
    assertions: int


@dataclass(frozen=True, slots=True)
class Plan:
    """A journey for one planner, precomputed once for all its repetitions."""

    steps: tuple[_StepPlan, ...]
    survival: tuple[float, ...]
    """``survival[i]``: the chance that the first ``i`` steps' first attempts all succeed."""
    falling: tuple[float, ...]  # -survival, increasing, for bisect
    checked_before: tuple[int, ...]  # assertions checked after steps 0 .. i-1
    retries: int  # retries a failing step may have


@lru_cache(maxsize=256)  # one request needs at most 8 planners x 20 journeys
def plan(planner: PlannerProfile, journey: JourneyProfile) -> Plan:
    """How ``journey``'s steps fail for ``planner``: the same for all its repetitions, and
    for every request that compares the two again."""
    error = 1.0 - planner.skill
    sensitivity = dict(planner.sensitivity)
    retries = max(0, journey.max_attempts - 1)
    steps: list[_StepPlan] = []
    survival = [1.0]
    checked = [0]
    for step in journey.steps:
        terms = [error * weight * sensitivity[h.name] for h, weight in step.hazards]
        failure = min(MAX_STEP_FAILURE, sum(terms))
        total = sum(terms) or 1.0
        running = 0.0
        shares = []
        for term in terms:
            running += term / total
            shares.append(running)
        shares[-1] = 1.0  # float sums may fall short of 1
        steps.append(
            _StepPlan(
                step_id=step.step_id,
                shares=tuple(shares),
                hazards=tuple(
                    (
                        h.failure_class,
                        h.lane.value,
                        retries > 0 and bool(h.recovered_by & journey.strategies),
                    )
                    for h, _ in step.hazards
                ),
                retry_success=RECOVERY_EFFICACY * (1.0 - failure),
                assertions=step.assertions,
            )
        )
        survival.append(survival[-1] * (1.0 - failure))
        checked.append(checked[-1] + step.assertions)
    return Plan(
        steps=tuple(steps),
        survival=tuple(survival),
        falling=tuple(-s for s in survival),
        checked_before=tuple(checked),
        retries=retries,
    )


def model_trials(
    corpus_version: str, planner: PlannerProfile, journey: JourneyProfile, repetitions: int
) -> list[Trial]:
    """Repetitions ``0 .. repetitions - 1`` of ``journey`` by ``planner``, in order."""
    prefix = _seed_prefix(
        corpus_version, journey.journey_id, planner.planner_id, planner.vendor, planner.model
    )
    journey_plan = plan(planner, journey)
    sha256 = hashlib.sha256
    return [
        _trial(
            sha256(prefix + b"%d]" % repetition).digest(),
            planner,
            journey,
            journey_plan,
            repetition,
        )
        for repetition in range(repetitions)
    ]


@lru_cache(maxsize=1024)  # a request has at most 8 planners x 20 journeys
def _seed_prefix(*identity: str) -> bytes:
    """The JSON of trial_seed's array without its repetition and closing "]": hashed with
    only the index appended, it gives trial_seed's bytes without re-encoding the rest."""
    return _canonical(identity)[:-1] + b","


Failure = tuple[int, FailureClass, str]
"""Where a trial ended failed: the step's index, the failure's class and its lane."""


class _Draws:
    """A trial's uniform draws after the jitter words, in the order the trial takes them."""

    __slots__ = ("block", "left")

    def __init__(self, digest: bytes, words: tuple[int, ...]) -> None:
        self.block = digest
        self.left = [w / _WORD_SPAN for w in reversed(words[_JITTER_WORDS:])]

    def next(self) -> float:
        if not self.left:
            self.block = hashlib.sha256(self.block).digest()
            self.left = [w / _WORD_SPAN for w in reversed(_WORDS.unpack(self.block))]
        return self.left.pop()


def _trial(  # positional: called once per trial, where keywords cost
    digest: bytes,
    planner: PlannerProfile,
    journey: JourneyProfile,
    journey_plan: Plan,
    repetition: int,
) -> Trial:
    words = _WORDS.unpack(digest)
    steps = journey_plan.steps
    count = len(steps)
    # Most trials pass every step at the first attempt: one word, one comparison.
    if count == 0 or words[_JITTER_WORDS] / _WORD_SPAN < journey_plan.survival[count]:
        failed: Failure | None = None
        retries = timeouts = 0
    else:
        failed, retries, timeouts = _run(_Draws(digest, words), journey_plan)
    reached = count if failed is None else failed[0] + 1
    checked = journey_plan.checked_before[reached if failed is None else failed[0]]
    if failed is not None and failed[1] is FailureClass.PRODUCT_ISSUE:
        checked += steps[failed[0]].assertions
    planner_ms = reached * STEP_LATENCY_MS + retries * RECOVERY_ATTEMPT_LATENCY_MS
    latency = (
        planner_ms * planner.speed + checked * ASSERTION_LATENCY_MS + timeouts * ACTION_TIMEOUT_MS
    )
    decisions = reached + retries
    output_per_decision = OUTPUT_TOKENS_PER_DECISION * planner.verbosity
    return Trial.consistent(
        planner.planner_id,
        journey.app_id,
        journey.journey_id,
        repetition,
        failed is None,
        round(latency * _jitter(words[0] / _WORD_SPAN, LATENCY_JITTER)),
        round(decisions * INPUT_TOKENS_PER_DECISION * _jitter(words[1] / _WORD_SPAN, TOKEN_JITTER)),
        round(decisions * output_per_decision * _jitter(words[2] / _WORD_SPAN, TOKEN_JITTER)),
        retries,
        None if failed is None else steps[failed[0]].step_id,
        None if failed is None else failed[2],
        count if failed is None else failed[0],
        count,
    )


def _run(
    draws: _Draws, journey_plan: Plan
) -> tuple[tuple[int, FailureClass, str] | None, int, int]:
    """Run the steps from the first: (the step, class and lane of the failure that ended the
    trial, or ``None``; retries; runtime_gap attempts that failed)."""
    survival, falling, steps = journey_plan.survival, journey_plan.falling, journey_plan.steps
    count = len(steps)
    at = 0  # the next step to run
    retries = timeouts = 0
    while at < count:
        target = draws.next() * survival[at]
        end = bisect.bisect_left(falling, -target, at + 1)
        if end > count:
            return None, retries, timeouts  # every remaining step succeeds at its first attempt
        index = end - 1
        step = steps[index]
        width = survival[index] - survival[end]
        within = (target - survival[end]) / width if width > 0 else 0.0
        chosen = bisect.bisect_right(step.shares, within)
        failure_class, lane, retried = step.hazards[min(chosen, len(step.hazards) - 1)]
        gap = failure_class is FailureClass.RUNTIME_GAP
        timeouts += gap
        recovered = False
        if retried:
            for _ in range(journey_plan.retries):
                retries += 1
                if draws.next() < step.retry_success:
                    recovered = True
                    break
                timeouts += gap
        if not recovered:
            return (index, failure_class, lane), retries, timeouts
        at = index + 1
    return None, retries, timeouts


def _uniforms_512(digest: bytes) -> tuple[float, ...]:
    return tuple(word / _WORD_SPAN for word in _WORDS_512.unpack(digest))


def _jitter(u: float, half_width: float) -> float:
    return 1.0 + half_width * (2.0 * u - 1.0)
