"""Every problem of a journey document, found in one pass, and its warnings.

The contract (``journey.v1``) is checked first; it knows shapes and vocabularies. What it
cannot know is checked next, on the raw document: whether the app, fixture and routes exist
in the corpus, whether ids are unique and assertions name real steps, and then every step
and assertion against the pages the journey goes through (:mod:`.page_checks`). Those checks
run only where the document has the right shape, and never at a path already reported, so
an agent gets one problem per thing to fix.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from automium import corpus
from automium.contracts import ErrorCode, Intent
from automium.errors import Problem, pointer, pointer_key, quoted
from automium.journeys.composition import Expansion, Prefix, expand, own_path
from automium.journeys.page_checks import Walk, Warning, walk
from automium.journeys.whole_numbers import whole_numbers
from automium.validation import check


@dataclass(frozen=True, slots=True)
class Checked:
    """What checking a journey found: its problems (none: valid), warnings and page trace."""

    problems: tuple[Problem, ...]
    warnings: tuple[Warning, ...]
    walk: Walk | None  # None when the app or fixture is unknown, so no page could be followed
    # The journey as it runs, its ``uses`` resolved; None when it uses none.
    expansion: Expansion | None = None


def check_journey(document: object) -> Checked:
    """Every problem and warning of ``document``, and the pages it goes through.

    Problems come cause first: those of the journey as written, then those of the page
    walk, each in document order.
    """
    if _wrapped(document):
        return Checked((_WRAPPED,), (), None)
    problems = check("journey.v1", document, _vocabularies(document))
    # The contract accepted 2.0 as an integer: the checks below read it as 2.
    document = whole_numbers(document)
    reported = {p.path for p in problems}
    problems += [p for p in _semantic_problems(document) if p.path not in reported]
    expansion, problems = _expansion(document, problems)
    written = sorted(problems, key=lambda p: pointer_key(p.path))
    refused = frozenset(p.path for p in problems)
    followed: Walk | None = None
    if expansion is not None:
        followed = _follow(expansion.document, _shifted(refused, expansion.prefix))
        if followed is not None:
            followed = _written_paths(followed, expansion.prefix)
    elif not (isinstance(document, dict) and "uses" in document):
        followed = _follow(document, refused)
    walked: list[Problem] = []
    if followed is not None:
        reported = {p.path for p in problems}
        walked = [p for p in followed.problems if p.path not in reported]
    # Cause first: what is wrong with the journey as written (a duplicate step id, an
    # unknown route) comes before what the page walk then finds, which it may cause.
    return Checked(
        problems=(*written, *sorted(walked, key=lambda p: pointer_key(p.path))),
        warnings=tuple(followed.warnings) if followed is not None else (),
        walk=followed,
        expansion=expansion,
    )


def _expansion(document: object, problems: list[Problem]) -> tuple[Expansion | None, list[Problem]]:
    """The journey as it runs, once its ``uses`` can be resolved; the problems, with those
    of ``uses`` added."""
    if not isinstance(document, dict) or "uses" not in document:
        return None, problems
    if {"", "/appId", "/fixtureId", "/uses", "/steps", "/assertions"} & {p.path for p in problems}:
        return None, problems
    expanded = expand(document)
    if isinstance(expanded, list):
        reported = {p.path for p in problems}
        return None, [*problems, *(p for p in expanded if p.path not in reported)]
    return expanded, problems


def _shifted(paths: frozenset[str], prefix: Prefix) -> frozenset[str]:
    """Paths the journey wrote, as paths of its expanded document."""
    shifted = set()
    for path in paths:
        moved = path
        for section, count in (("steps", prefix.steps), ("assertions", prefix.assertions)):
            head = f"/{section}/"
            index, _, rest = path[len(head) :].partition("/")
            if path.startswith(head) and index.isdigit():
                moved = f"{head}{int(index) + count}" + (f"/{rest}" if rest else "")
                break
        shifted.add(moved)
    return frozenset(shifted)


def _written_paths(followed: Walk, prefix: Prefix) -> Walk:
    """The walk of the expanded journey, its findings at the paths the journey wrote."""
    return replace(
        followed,
        problems=[replace(p, path=own_path(p.path, prefix)) for p in followed.problems],
        warnings=[replace(w, path=own_path(w.path, prefix)) for w in followed.warnings],
        unchecked=[replace(u, path=own_path(u.path, prefix)) for u in followed.unchecked],
    )


# A journey passed as {"journey": {...}} would otherwise be one problem per missing field.
_WRAPPED = Problem(
    ErrorCode.INVALID_INPUT,
    'the journey is wrapped in {"journey": ...}: pass its fields (id, appId, fixtureId, '
    "goal, steps, assertions, recovery) as the arguments themselves",
    "/journey",
)


def _wrapped(document: object) -> bool:
    return (
        isinstance(document, dict)
        and isinstance(document.get("journey"), dict)
        and "steps" not in document
    )


def with_nested_journey(
    problems: list[Problem], document: object, checked: Checked | None = None
) -> list[Problem]:
    """The problems of a tool input that may carry a journey at ``/journey``: those its
    contract found, except under the journey, whose problems are the ones compile finds
    (its contract's included), so each is reported once, as compile reports it.
    ``checked``: the check already made of that journey."""
    journey = document.get("journey") if isinstance(document, dict) else None
    if not isinstance(journey, dict):
        return problems
    kept = {p.path: p for p in problems if not p.path.startswith("/journey/")}
    found = (checked or check_journey(journey)).problems
    for problem in (replace(p, path="/journey" + p.path) for p in found):
        kept.setdefault(problem.path, problem)
    return list(kept.values())


def nested_problems(document: object, at: str) -> tuple[Problem, ...]:
    """The problems of a journey given inside another tool's input, at JSON Pointer ``at``:
    exactly those compile would find, with their paths under ``at``."""
    return tuple(replace(p, path=at + p.path) for p in check_journey(document).problems)


def _follow(document: object, refused: frozenset[str]) -> Walk | None:
    """The walk through the journey's pages, once its app and fixture are known."""
    if not isinstance(document, dict) or {"/appId", "/fixtureId", ""} & refused:
        return None
    fixture = corpus.get_fixture(document["fixtureId"], document["appId"])
    return walk(document, fixture, refused)


def _vocabularies(document: object) -> dict[str, tuple[str, ...]]:
    """The corpus's allowed values, plus the app's route ids once the app is known."""
    vocabularies = corpus.vocabularies()
    app_id = document.get("appId") if isinstance(document, dict) else None
    if isinstance(app_id, str) and corpus.app_problem(app_id, "") is None:
        vocabularies["RouteId"] = corpus.route_ids(app_id)
    return vocabularies


def _semantic_problems(document: object) -> Iterator[Problem]:
    if not isinstance(document, dict):
        return
    app_id = document.get("appId")
    app_problem = corpus.app_problem(app_id, "/appId")
    if app_problem is not None:
        yield app_problem
    fixture_id = document.get("fixtureId")
    # When fixtureId is missing this lands on a path the contract reported, and is dropped.
    if fixture_problem := corpus.fixture_problem(fixture_id, app_id, "/fixtureId"):
        yield fixture_problem
    steps = _objects(document.get("steps"))
    assertions = _objects(document.get("assertions"))
    checks = _objects(document.get("successChecks"))
    # Route checks need a known app; with an unknown one they would only echo it.
    if app_problem is None and isinstance(app_id, str):
        yield from _route_problems(app_id, steps, assertions, checks)
    yield from _duplicate_ids("steps", steps)
    yield from _duplicate_ids("assertions", assertions)
    yield from _duplicate_ids("successChecks", checks)
    if isinstance(document.get("steps"), list):
        yield from _after_step_problems(steps, assertions)


def _objects(items: object) -> list[tuple[int, dict[str, Any]]]:
    """The ``(index, item)`` pairs of a list that are objects; anything else is skipped."""
    if not isinstance(items, list):
        return []
    return [(i, item) for i, item in enumerate(items) if isinstance(item, dict)]


def _route_problems(
    app_id: str,
    steps: list[tuple[int, dict[str, Any]]],
    assertions: list[tuple[int, dict[str, Any]]],
    checks: list[tuple[int, dict[str, Any]]],
) -> Iterator[Problem]:
    for section, items, tag, value in (
        ("steps", steps, "intent", Intent.NAVIGATE),
        ("assertions", assertions, "kind", "route_is"),
        ("successChecks", checks, "kind", "route_is"),
    ):
        for i, item in items:
            if item.get(tag) == value and "route" in item:
                path = pointer(section, i, "route")
                if problem := corpus.route_problem(app_id, item["route"], path):
                    yield problem


def _duplicate_ids(section: str, items: list[tuple[int, dict[str, Any]]]) -> Iterator[Problem]:
    seen: set[str] = set()
    for i, item in items:
        item_id = item.get("id")
        if not isinstance(item_id, str):
            continue
        if item_id in seen:
            what = {"steps": "step", "assertions": "assertion"}.get(section, "success check")
            yield Problem(
                ErrorCode.INVALID_INPUT,
                f"{what} id {quoted(item_id)} is already used by an earlier {what}; "
                f"give every {what} its own id",
                pointer(section, i, "id"),
            )
        seen.add(item_id)


def _after_step_problems(
    steps: list[tuple[int, dict[str, Any]]], assertions: list[tuple[int, dict[str, Any]]]
) -> Iterator[Problem]:
    step_ids = tuple(dict.fromkeys(s["id"] for _, s in steps if isinstance(s.get("id"), str)))
    for i, assertion in assertions:
        after = assertion.get("afterStep")
        if isinstance(after, str) and after not in step_ids:
            yield Problem(
                ErrorCode.INVALID_INPUT,
                f"afterStep {quoted(after)} names no step of this journey; "
                "use the id of the step after which the assertion is checked",
                pointer("assertions", i, "afterStep"),
                step_ids,
            )
