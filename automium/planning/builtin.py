"""The built-in planners: the journey as written, a seeded random baseline, a heuristic.

Each answers a ``PlannerRequest`` with a ``PlannerDecision`` document, as an external one
does, and costs no tokens:

- ``scripted-journey`` (the oracle) decides the journey's steps in order, then finishes;
- ``random[:SEED]`` picks one of the snapshot's actionable elements and an intent it takes,
  from a generator seeded by the seed and the run id: the same seed gives the same trial;
- ``heuristic`` reads the goal and the snapshot only: it acts on the element whose
  accessible name shares the most words with the goal, once each, fills fields with the
  goal's words or an offered credential, and finishes when nothing on the page matches.
  It is a real strategy: it fails where the goal's words are not the page's.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

from automium.contracts import DecisionKind, Intent
from automium.journeys.branches import Branch, starting_at
from automium.planning.protocol import guard_holds

Json = dict[str, Any]
SCHEMA_VERSION = "automium.planner-adapter/v1"
_FIELDS = frozenset({"textbox", "searchbox", "spinbutton"})
_CLICKABLE = frozenset({"button", "link", "tab", "menuitem", "option", "radio"})
_BOXES = frozenset({"checkbox", "switch"})
ACTIONABLE = _FIELDS | _CLICKABLE | _BOXES | frozenset({"combobox"})
_STOP = frozenset(
    {
        "a",
        "an",
        "and",
        "as",
        "at",
        "be",
        "by",
        "for",
        "from",
        "i",
        "in",
        "is",
        "it",
        "of",
        "on",
        "one",
        "or",
        "the",
        "then",
        "to",
        "two",
        "with",
        "see",
    }
)


def _decision(reference: Json, rationale: str, **fields: Any) -> Json:
    return {
        "schemaVersion": SCHEMA_VERSION,
        "messageType": "decision",
        "planner": reference,
        **{k: v for k, v in fields.items() if v is not None},
        "rationale": rationale[:2000] or "-",
        "tokenUsage": {"input": 0, "output": 0},
        "latencyMs": 0,
    }


def _finish(reference: Json, rationale: str, kind: DecisionKind = DecisionKind.FINISH) -> Json:
    return _decision(reference, rationale, kind=kind.value)


def actionable(snapshot: Json) -> list[Json]:
    """The snapshot's nodes a planner can act on, in document order."""

    def walk(node: Json, parent: str) -> Iterator[Json]:
        # A select's options are chosen on the select (select_option): clicked, an option
        # of a closed select waits out the action's bound.
        shown = node["role"] in ACTIONABLE and "disabled" not in node.get("states", ())
        if shown and not (node["role"] == "option" and parent == "combobox"):
            yield node
        for child in node.get("children", ()):
            yield from walk(child, node["role"])

    return list(walk(snapshot["root"], ""))


def options_of(node: Json) -> list[str]:
    """The names of a select's options (a combobox's own), in order."""
    return [c["name"] for c in node.get("children", ()) if c["role"] == "option" and c["name"]]


class ScriptedPlanner:
    """The journey is the plan: each turn its next step, then finish. A branch's guard is
    decided on the snapshot of the page the branch starts on, as a run decides it on the
    page: when it fails, the branch's steps are skipped."""

    def __init__(self) -> None:
        self.reference: Json = {"id": "scripted-journey", "vendor": "scripted", "model": "journey"}
        self.steps: list[Json] = []
        self.next = 0
        self.opening: dict[int, Branch] = {}

    def start(self, journey: Json) -> None:
        self.steps = list(journey["steps"])
        self.next = 0
        self.opening = starting_at(self.steps)

    def decide(self, request: Json) -> Json:
        while self.next in self.opening:
            branch = self.opening[self.next]
            if guard_holds(branch.guard, request["snapshot"]):
                break
            self.next = branch.end
        if self.next >= len(self.steps):
            return _finish(self.reference, "every step of the journey is done")
        step = self.steps[self.next]
        self.next += 1
        fields = {k: v for k, v in step.items() if k not in ("id", "note", "entity", "when")}
        if step["intent"] in (Intent.SCROLL, Intent.WAIT_FOR):
            fields = {k: v for k, v in fields.items() if k in ("intent", "target")}
        return _decision(self.reference, f"step {step['id']}", kind="act", **fields)

    def close(self) -> None:
        self.steps = []
        self.opening = {}


class RandomPlanner:
    """A seeded random walk over the page's actionable elements."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.reference: Json = {"id": "random", "vendor": "baseline", "model": f"seed-{seed}"}
        self.rng = random.Random(seed)

    def start(self, journey: Json) -> None:
        del journey

    def decide(self, request: Json) -> Json:
        if not request["history"]:  # a trial's first turn: the run id seeds the generator
            self.rng = random.Random(f"{self.seed}/{request['runId']}")
        rng = self.rng
        nodes = actionable(request["snapshot"])
        if not nodes or rng.random() < 0.08:
            return _finish(self.reference, "a random stop")
        node = rng.choice(nodes)
        target = {"ref": node["ref"]}
        role = node["role"]
        words = _words(request["goal"]) or ["x"]
        if role in _FIELDS:
            secrets = request.get("secretRefs", [])
            if secrets and rng.random() < 0.5:
                return self._act(Intent.FILL, target, secretRef=rng.choice(secrets))
            return self._act(Intent.FILL, target, value=rng.choice(words))
        if role == "combobox" and (options := options_of(node)):
            return self._act(Intent.SELECT_OPTION, target, value=rng.choice(options))
        if role in _BOXES:
            return self._act(rng.choice([Intent.CHECK, Intent.UNCHECK]), target)
        return self._act(rng.choice([Intent.CLICK, Intent.CLICK, Intent.HOVER]), target)

    def _act(self, intent: str, target: Json, **fields: Any) -> Json:
        return _decision(
            self.reference, f"random {intent}", kind="act", intent=intent, target=target, **fields
        )

    def close(self) -> None:
        pass


class HeuristicPlanner:
    """Match the goal's words to accessible names; act on the best match not yet tried."""

    def __init__(self) -> None:
        self.reference: Json = {"id": "heuristic", "vendor": "baseline", "model": "goal-words"}
        self.tried: set[tuple[str, str, str]] = set()

    def start(self, journey: Json) -> None:
        del journey
        self.tried = set()

    def decide(self, request: Json) -> Json:
        goal = set(_words(request["goal"]))
        route = request["snapshot"]["routeId"]
        best: tuple[int, Json] | None = None
        for node in actionable(request["snapshot"]):
            key = (route, node["role"], node["name"])
            if key in self.tried:
                continue
            score = len(goal & set(_words(node["name"])))
            if node["role"] == "combobox":
                score += _best_option(goal, node)[0]
            if node["role"] in _FIELDS and not node.get("value"):
                score += 1  # an empty field on the way is probably to be filled
            if score > 0 and (best is None or score > best[0]):
                best = (score, node)
        if best is None:
            return _finish(self.reference, "nothing on this page matches the goal any more")
        node = best[1]
        self.tried.add((route, node["role"], node["name"]))
        target = {"ref": node["ref"]}
        name = " ".join(_words(node["name"]))
        if node["role"] in _FIELDS:
            secret = self._credential(name, request.get("secretRefs", []))
            if secret is not None:
                return self._act(Intent.FILL, target, f"{name}: a credential", secretRef=secret)
            value = _value_for(request["goal"], name)
            return self._act(Intent.FILL, target, f"{name}: words of the goal", value=value)
        if node["role"] in _BOXES:
            return self._act(Intent.CHECK, target, f"{name} matches the goal")
        if node["role"] == "combobox" and (option := _best_option(goal, node)[1]) is not None:
            why = f"{name}: the option {option} matches the goal"
            return self._act(Intent.SELECT_OPTION, target, why, value=option)
        return self._act(Intent.CLICK, target, f"{name} matches the goal")

    @staticmethod
    def _credential(name: str, secrets: list[str]) -> str | None:
        for ref in secrets:
            kind = ref.rpartition("#")[2]
            if (kind == "password" and "password" in name) or (
                kind == "one-time-code" and "code" in name
            ):
                return ref
        return None

    def _act(self, intent: str, target: Json, why: str, **fields: Any) -> Json:
        return _decision(self.reference, why, kind="act", intent=intent, target=target, **fields)

    def close(self) -> None:
        pass


def _best_option(goal: set[str], select: Json) -> tuple[int, str | None]:
    """The select's option sharing the most words with the goal, and how many (none: 0)."""
    scored = [(len(goal & set(_words(o))), o) for o in options_of(select)]
    best = max(scored, key=lambda pair: pair[0], default=(0, None))
    return best if best[0] > 0 else (0, None)


def _words(text: str) -> list[str]:
    return [w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in _STOP and len(w) > 1]


def _value_for(goal: str, field: str) -> str:
    """A quoted phrase of the goal, else its first word the field's name does not hold."""
    quoted = re.findall(r"[\"“']([^\"”']+)[\"”']", goal)
    if quoted:
        return str(quoted[0])
    words = [w for w in _words(goal) if w not in field.split()]
    return words[-1] if words else "test"


__all__ = ["HeuristicPlanner", "RandomPlanner", "ScriptedPlanner", "actionable"]
