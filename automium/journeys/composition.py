"""A journey that starts from another's end (``uses``), expanded into the one it runs.

``uses`` names a reference journey of the same app and fixture. Compile, a run and an
export all work on the *expanded* journey: the used journey's steps and assertions first
(and, when it uses another, that one's before them), then the journey's own, under the
journey's own recovery policy. So the prefix is checked, walked and run for real, and the
journey's own steps are checked from the page and state where the prefix leaves off.

Refusals, all at ``/uses``: a journey that is not a reference journey
(``unknown_journey``), one of another app (``journey_app_mismatch``) or fixture
(``journey_fixture_mismatch``), a chain that comes back to a journey already in it
(``uses_cycle``), a chain longer than :data:`MAX_USES_DEPTH` (``uses_too_deep``). A step
or assertion id the prefix already uses is refused where the journey writes it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from automium import corpus
from automium.contracts import ErrorCode, to_document
from automium.errors import Problem, pointer, quoted

MAX_USES_DEPTH = 3
"""How many journeys a chain of ``uses`` may go through: a journey using one that uses
another is 2. Deeper setups are better written as one reference journey."""

Document = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Prefix:
    """What ``uses`` put before a journey's own steps."""

    chain: tuple[str, ...]  # the journey it names first, then the one that one names…
    steps: int  # the expanded journey's first ``steps`` steps are the prefix's
    assertions: int
    step_parts: tuple[str, ...]  # per prefix step, the id of the journey it comes from

    def part_of_step(self, index: int) -> str | None:
        return self.step_parts[index] if index < self.steps else None


@dataclass(frozen=True, slots=True)
class Expansion:
    document: Document
    prefix: Prefix


def _reference(journey_id: str) -> Document | None:
    return next((to_document(j) for j in corpus.reference_journeys() if j.id == journey_id), None)


def expand(document: Document) -> Expansion | list[Problem]:
    """The journey ``document`` runs, its ``uses`` resolved, or the problems at ``/uses``.
    ``document`` has a ``uses`` and a known app and fixture (the caller checked)."""
    chain: list[Document] = []
    seen = [str(document["id"])]
    current: Document = document
    while "uses" in current:
        used = str(current["uses"])
        if used in seen:
            return [
                Problem(
                    ErrorCode.USES_CYCLE,
                    f"uses {quoted(used)} comes back to a journey already in the chain "
                    f"({' -> '.join([*seen, used])}); a journey cannot start from its own end",
                    "/uses",
                    tuple(seen),
                )
            ]
        if len(chain) == MAX_USES_DEPTH:
            return [
                Problem(
                    ErrorCode.USES_TOO_DEEP,
                    f"the chain of uses ({' -> '.join([*seen, used])}) goes through more than "
                    f"{MAX_USES_DEPTH} journeys; start from a journey nearer the end",
                    "/uses",
                )
            ]
        found = _reference(used)
        if found is None or problem_of(found, document) is not None:
            return [_refusal(found, document, used)]
        chain.append(found)
        seen.append(used)
        current = found
    prefix_steps: list[Any] = []
    prefix_assertions: list[Any] = []
    parts: list[str] = []
    for used_journey in reversed(chain):  # the deepest runs first
        prefix_steps += used_journey["steps"]
        prefix_assertions += used_journey["assertions"]
        parts += [str(used_journey["id"])] * len(used_journey["steps"])
    problems = list(_clashes(document, prefix_steps, prefix_assertions, chain[0]["id"]))
    if problems:
        return problems
    expanded = {k: v for k, v in document.items() if k != "uses"}
    expanded["steps"] = [*prefix_steps, *document["steps"]]
    expanded["assertions"] = [*prefix_assertions, *document["assertions"]]
    prefix = Prefix(
        tuple(str(j["id"]) for j in chain),
        len(prefix_steps),
        len(prefix_assertions),
        tuple(parts),
    )
    return Expansion(expanded, prefix)


def problem_of(found: Document, document: Document) -> str | None:
    """Why ``found`` cannot start ``document``: another ``app`` or ``fixture``."""
    if found["appId"] != document["appId"]:
        return "app"
    if found["fixtureId"] != document["fixtureId"]:
        return "fixture"
    return None


def _refusal(found: Document | None, document: Document, used: str) -> Problem:
    same = [
        j.id
        for j in corpus.reference_journeys(str(document["fixtureId"]))
        if j.app_id == document["appId"] and j.id != document["id"]
    ]
    if found is None:
        return Problem(
            ErrorCode.UNKNOWN_JOURNEY,
            f"uses {quoted(used)} names no reference journey; name one of "
            f"{document['fixtureId']}'s",
            "/uses",
            tuple(same),
        )
    if problem_of(found, document) == "app":
        return Problem(
            ErrorCode.JOURNEY_APP_MISMATCH,
            f"uses {quoted(used)} is a journey of {found['appId']}, and this one is of "
            f"{document['appId']}; a journey starts from a journey of its own app",
            "/uses",
            tuple(same),
        )
    return Problem(
        ErrorCode.JOURNEY_FIXTURE_MISMATCH,
        f"uses {quoted(used)} starts from fixture {found['fixtureId']}, and this journey from "
        f"{document['fixtureId']}; a journey starts from a journey of its own fixture",
        "/uses",
        tuple(same),
    )


def _clashes(
    document: Document, steps: list[Any], assertions: list[Any], used: object
) -> Iterator[Problem]:
    for section, prefix_items in (("steps", steps), ("assertions", assertions)):
        taken = {item.get("id") for item in prefix_items}
        what = "step" if section == "steps" else "assertion"
        article = "a" if section == "steps" else "an"
        for i, item in enumerate(document[section]):
            if isinstance(item, dict) and item.get("id") in taken:
                yield Problem(
                    ErrorCode.INVALID_INPUT,
                    f"{what} id {quoted(item['id'])} is already {article} {what} of "
                    f"{quoted(used)}, which this journey uses; give it another id",
                    pointer(section, i, "id"),
                )


def own_path(path: str, prefix: Prefix) -> str:
    """A path in the expanded journey, as the journey wrote it: a prefix step's is
    ``/uses`` (the used journey is where to look)."""
    for section, count in (("steps", prefix.steps), ("assertions", prefix.assertions)):
        head = f"/{section}/"
        if path.startswith(head):
            index, _, rest = path[len(head) :].partition("/")
            if index.isdigit():
                n = int(index)
                if n < count:
                    return "/uses"
                return f"{head}{n - count}" + (f"/{rest}" if rest else "")
    return path


def run_step_ids(document: Document) -> list[str]:
    """The ids of the steps a run of ``document`` performs: a used journey's first."""
    expanded = expand(document) if "uses" in document else None
    runs = expanded.document if isinstance(expanded, Expansion) else document
    return [str(s["id"]) for s in runs["steps"]]
