"""The deterministic planner model: where v1 trials come from, since nothing is executed.

Every number below is an assumption, not a measurement of any real planner. The report
repeats these assumptions word for word in ``modeled.assumptions`` (``ASSUMPTIONS``):

- Trials are modeled, not executed: a trial's outcome, latency and tokens are drawn from the
  sha256 digest of the corpus version, journey id, planner id, vendor, model and repetition
  index, so the same request always gives the same trials.
- Planner traits depend only on vendor and model (trimmed, case-folded): skill is uniform in
  [0.8, 0.97], speed factor in [0.75, 1.35] and verbosity in [0.8, 1.4]; they say nothing
  about any real model.
- Journey difficulty is 0.015 per step plus 0.01 per assertion plus the weights of the app's
  capabilities (one-time-codes 0.08, iframes 0.06, file-upload 0.05, rich-text 0.04,
  multi-step-forms 0.03, modals 0.02, confirmation-dialogs 0.02, any other 0); every journey
  of an app meets all of the app's capabilities.
- A trial passes on its first attempt with probability skill - difficulty, clamped to
  [0.05, 0.99].
- A first-attempt failure is recoverable with probability 0.7; a recoverable failure tries
  recovery up to the journey's recovery.maxAttempts times, each attempt succeeding with
  probability 0.5 * skill; a recovered trial counts as passed, and the other failures end
  failed without trying recovery.
- Latency is (1500 ms per step + 2500 ms per recovery attempt) * speed factor + 200 ms per
  assertion, times a uniform jitter of +/-20%; a failing trial still runs every step.
- Tokens: one planner decision per step and per recovery attempt, each with 2400 input tokens
  (snapshot, goal and history) and 90 output tokens * verbosity, each total with a uniform
  jitter of +/-10%.

How the numbers are drawn: the trial digest's 32 bytes are read as eight big-endian 32-bit
words, each divided by 2**32 to give a uniform draw in [0, 1); word 0 decides the first
attempt, word 1 whether a failure is recoverable, words 2-4 the (at most three) recovery
attempts, word 5 the latency jitter and words 6-7 the input and output token jitter. Planner
traits come the same way from a digest of vendor and model alone. No global random state
and no clock is used, so the model is reproducible across processes and machines.
"""

from __future__ import annotations

import hashlib
import json
import struct
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from automium.benchmark.trials import Trial
from automium.contracts import Journey

# Planner traits, each drawn uniformly in [low, high] from the vendor+model digest.
SKILL_RANGE = (0.8, 0.97)  # first-attempt pass probability on a journey of zero difficulty
SPEED_RANGE = (0.75, 1.35)  # multiplier of decision and action latency (1 = reference planner)
VERBOSITY_RANGE = (0.8, 1.4)  # multiplier of output tokens per decision

# Journey difficulty, subtracted from skill.
DIFFICULTY_PER_STEP = 0.015  # each step is one more decision that can go wrong
DIFFICULTY_PER_ASSERTION = 0.01  # each assertion is one more check the end state must meet
# Capabilities that trip planners up: codes they cannot see, content in other frames, native
# file pickers, editors with custom semantics, state carried across pages, focus traps.
CAPABILITY_DIFFICULTY: Mapping[str, float] = {
    "one-time-codes": 0.08,
    "iframes": 0.06,
    "file-upload": 0.05,
    "rich-text": 0.04,
    "multi-step-forms": 0.03,
    "modals": 0.02,
    "confirmation-dialogs": 0.02,
}
# No planner is certain to pass or certain to fail; keeps pass^k informative.
PASS_PROBABILITY_RANGE = (0.05, 0.99)

# Recovery.
RECOVERABLE_FAILURE_SHARE = 0.7  # failures a bounded strategy (retry, refresh, ...) applies to
RECOVERY_EFFICACY = 0.5  # an attempt succeeds with probability RECOVERY_EFFICACY * skill

# Latency, in milliseconds.
STEP_LATENCY_MS = 1500  # one planner decision plus one browser action
RECOVERY_ATTEMPT_LATENCY_MS = 2500  # a fresh snapshot, a decision and the retried action
ASSERTION_LATENCY_MS = 200  # a check of the page state; no planner involved, so no speed factor
LATENCY_JITTER = 0.2  # relative half-width of the uniform latency jitter

# Tokens, per planner decision.
INPUT_TOKENS_PER_DECISION = 2400  # semantic snapshot, goal, allowed intents and history
OUTPUT_TOKENS_PER_DECISION = 90  # intent, target, value and a short rationale
TOKEN_JITTER = 0.1  # relative half-width of the uniform token jitter (snapshots vary in size)

# The journey contract bounds recovery.maxAttempts to 1..3, and the digest has three words
# set aside for recovery draws.
_RECOVERY_DRAWS = 3

_WORDS = struct.Struct(">8I")
_WORD_SPAN = 2.0**32

ASSUMPTIONS: tuple[str, ...] = (
    "Trials are modeled, not executed: a trial's outcome, latency and tokens are drawn from "
    "the sha256 digest of the corpus version, journey id, planner id, vendor, model and "
    "repetition index, so the same request always gives the same trials.",
    "Planner traits depend only on vendor and model (trimmed, case-folded): skill is uniform "
    f"in [{SKILL_RANGE[0]:g}, {SKILL_RANGE[1]:g}], speed factor in [{SPEED_RANGE[0]:g}, "
    f"{SPEED_RANGE[1]:g}] and verbosity in [{VERBOSITY_RANGE[0]:g}, {VERBOSITY_RANGE[1]:g}]; "
    "they say nothing about any real model.",
    f"Journey difficulty is {DIFFICULTY_PER_STEP:g} per step plus {DIFFICULTY_PER_ASSERTION:g} "
    "per assertion plus the weights of the app's capabilities ("
    + ", ".join(f"{name} {weight:g}" for name, weight in CAPABILITY_DIFFICULTY.items())
    + ", any other 0); every journey of an app meets all of the app's capabilities.",
    "A trial passes on its first attempt with probability skill - difficulty, clamped to "
    f"[{PASS_PROBABILITY_RANGE[0]:g}, {PASS_PROBABILITY_RANGE[1]:g}].",
    f"A first-attempt failure is recoverable with probability {RECOVERABLE_FAILURE_SHARE:g}; "
    "a recoverable failure tries recovery up to the journey's recovery.maxAttempts times, "
    f"each attempt succeeding with probability {RECOVERY_EFFICACY:g} * skill; a recovered "
    "trial counts as passed, and the other failures end failed without trying recovery.",
    f"Latency is ({STEP_LATENCY_MS} ms per step + {RECOVERY_ATTEMPT_LATENCY_MS} ms per "
    f"recovery attempt) * speed factor + {ASSERTION_LATENCY_MS} ms per assertion, times a "
    f"uniform jitter of +/-{LATENCY_JITTER:.0%}; a failing trial still runs every step.",
    "Tokens: one planner decision per step and per recovery attempt, each with "
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


@dataclass(frozen=True, slots=True)
class JourneyProfile:
    """A reference journey as the model sees it: its size and its difficulty."""

    app_id: str
    journey_id: str
    steps: int
    assertions: int
    max_recovery_attempts: int
    difficulty: float


def planner_profile(planner_id: str, vendor: str, model: str) -> PlannerProfile:
    """The modeled traits of a planner; the same vendor and model give the same traits."""
    traits = ["automium.planner-traits/v1", vendor.strip().casefold(), model.strip().casefold()]
    u = _uniforms(_sha256(traits))
    return PlannerProfile(
        planner_id=planner_id,
        vendor=vendor,
        model=model,
        skill=_within(SKILL_RANGE, u[0]),
        speed=_within(SPEED_RANGE, u[1]),
        verbosity=_within(VERBOSITY_RANGE, u[2]),
    )


def journey_difficulty(steps: int, assertions: int, capabilities: Iterable[str]) -> float:
    return (
        steps * DIFFICULTY_PER_STEP
        + assertions * DIFFICULTY_PER_ASSERTION
        + sum(CAPABILITY_DIFFICULTY.get(c, 0.0) for c in capabilities)
    )


def journey_profile(journey: Journey, capabilities: Iterable[str]) -> JourneyProfile:
    """``capabilities`` are those of the journey's app."""
    steps, assertions = len(journey.steps), len(journey.assertions)
    return JourneyProfile(
        app_id=journey.app_id,
        journey_id=journey.id,
        steps=steps,
        assertions=assertions,
        max_recovery_attempts=min(journey.recovery.max_attempts, _RECOVERY_DRAWS),
        difficulty=journey_difficulty(steps, assertions, capabilities),
    )


def pass_probability(skill: float, difficulty: float) -> float:
    low, high = PASS_PROBABILITY_RANGE
    return min(high, max(low, skill - difficulty))


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


def model_trials(
    corpus_version: str, planner: PlannerProfile, journey: JourneyProfile, repetitions: int
) -> list[Trial]:
    """Repetitions ``0 .. repetitions - 1`` of ``journey`` by ``planner``, in order."""
    identity = [corpus_version, journey.journey_id, planner.planner_id, planner.vendor]
    # The JSON of trial_seed's array without its closing "]": hashed once per repetition with
    # only the index appended, which gives trial_seed's bytes without re-encoding the rest.
    prefix = _canonical([*identity, planner.model])[:-1] + b","
    p_pass = pass_probability(planner.skill, journey.difficulty)
    p_attempt = RECOVERY_EFFICACY * planner.skill
    return [
        _trial(
            hashlib.sha256(prefix + b"%d]" % repetition).digest(),
            planner=planner,
            journey=journey,
            repetition=repetition,
            p_pass=p_pass,
            p_attempt=p_attempt,
        )
        for repetition in range(repetitions)
    ]


def _trial(
    digest: bytes,
    *,
    planner: PlannerProfile,
    journey: JourneyProfile,
    repetition: int,
    p_pass: float,
    p_attempt: float,
) -> Trial:
    u = _uniforms(digest)
    passed = u[0] < p_pass
    attempts = 0
    recovered = False
    if not passed and u[1] < RECOVERABLE_FAILURE_SHARE:
        for draw in u[2 : 2 + journey.max_recovery_attempts]:
            attempts += 1
            if draw < p_attempt:
                recovered = True
                break
    planner_ms = journey.steps * STEP_LATENCY_MS + attempts * RECOVERY_ATTEMPT_LATENCY_MS
    latency = planner_ms * planner.speed + journey.assertions * ASSERTION_LATENCY_MS
    decisions = journey.steps + attempts
    output_per_decision = OUTPUT_TOKENS_PER_DECISION * planner.verbosity
    return Trial(
        planner_id=planner.planner_id,
        app_id=journey.app_id,
        journey_id=journey.journey_id,
        repetition=repetition,
        passed=passed or recovered,
        latency_ms=round(latency * _jitter(u[5], LATENCY_JITTER)),
        input_tokens=round(decisions * INPUT_TOKENS_PER_DECISION * _jitter(u[6], TOKEN_JITTER)),
        output_tokens=round(decisions * output_per_decision * _jitter(u[7], TOKEN_JITTER)),
        recovery_attempted=attempts > 0,
        recovered=recovered,
    )


def _canonical(values: Sequence[str | int]) -> bytes:
    return json.dumps(values, separators=(",", ":")).encode("ascii")


def _sha256(values: Sequence[str | int]) -> bytes:
    return hashlib.sha256(_canonical(values)).digest()


def _uniforms(digest: bytes) -> tuple[float, ...]:
    return tuple(word / _WORD_SPAN for word in _WORDS.unpack(digest))


def _within(bounds: tuple[float, float], u: float) -> float:
    low, high = bounds
    return low + (high - low) * u


def _jitter(u: float, half_width: float) -> float:
    return 1.0 + half_width * (2.0 * u - 1.0)
