"""What a modeled planner's decisions cost, in time and tokens, and the traits that scale
them: the numbers the benchmark's trials (``benchmark/simulation.py``) and a run's modeled
timeline (``runs/timeline.py``) both use, kept here so that neither imports the other.

Every number is an assumption, not a measurement of any real planner (the benchmark report
states them in ``modeled.assumptions``). Traits are drawn from a digest of the planner's
vendor and model alone, so the same vendor and model always give the same traits.
"""

from __future__ import annotations

import hashlib
import json
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

# Latency, in milliseconds.
STEP_LATENCY_MS = 1500  # one planner decision plus one browser action
ASSERTION_LATENCY_MS = 200  # a check of the page state; no planner involved, so no speed factor
MODELED_ACTION_TIMEOUT_MS = 30000  # what a runtime gap costs: the action waits out its timeout

# Tokens, per planner decision.
INPUT_TOKENS_PER_DECISION = 2400  # semantic snapshot, goal, allowed intents and history
OUTPUT_TOKENS_PER_DECISION = 90  # intent, target, value and a short rationale

# Planner traits, each drawn uniformly in [low, high] from the vendor+model digest.
SKILL_RANGE = (0.92, 0.985)  # the chance an attempt at a plain step succeeds
SPEED_RANGE = (0.75, 1.35)  # multiplier of decision and action latency (1 = reference planner)
VERBOSITY_RANGE = (0.8, 1.4)  # multiplier of output tokens per decision

_WORDS = struct.Struct(">8I")
WORD_SPAN = 2.0**32


def canonical(values: Sequence[str | int]) -> bytes:
    """The compact JSON array of ``values``: no choice of values hashes another's bytes."""
    return json.dumps(values, separators=(",", ":")).encode("ascii")


def sha256_of(values: Sequence[str | int]) -> bytes:
    return hashlib.sha256(canonical(values)).digest()


def uniforms(digest: bytes) -> tuple[float, ...]:
    """A 32-byte digest as eight uniform draws in [0, 1) (big-endian 32-bit words)."""
    return tuple(word / WORD_SPAN for word in _WORDS.unpack(digest))


def within(bounds: tuple[float, float], u: float) -> float:
    low, high = bounds
    return low + (high - low) * u


@dataclass(frozen=True, slots=True)
class Traits:
    skill: float
    speed: float
    verbosity: float


@lru_cache(maxsize=64)
def planner_traits(vendor: str, model: str) -> Traits:
    """The modeled skill, speed and verbosity of a planner, from its vendor and model."""
    u = uniforms(sha256_of(["automium.planner-traits/v1", *planner_name(vendor, model)]))
    return Traits(
        skill=within(SKILL_RANGE, u[0]),
        speed=within(SPEED_RANGE, u[1]),
        verbosity=within(VERBOSITY_RANGE, u[2]),
    )


def planner_name(vendor: str, model: str) -> list[str]:
    """What a planner's traits are drawn for: its vendor and model, case and spaces aside."""
    return [vendor.strip().casefold(), model.strip().casefold()]
