"""Wrong journeys derived from the reference journeys, and correct ones with dynamic content,
each given compile's static verdict, and the confusion that follows.

A careful QA engineer reading the page models would catch each mistake; the classes are
those issue 23 lists: text the page never shows, counts, values, order, state, the wrong
kind of control, targets absent from the page, and a key or ``go_back`` that loses the
page. Every mutant is derived from a reference journey (which compiles and is correct) by
walking it as compile does and editing it once at a point the walk knows, so the number of
mutants grows with the corpus, not with a list of cases.

The static verdict is one of ``refused``, ``valid-unchecked`` (valid, with an unchecked
item or a warning naming the cause), or ``valid`` (silently: nothing says it may fail).
The real outcome, each mutant run in headless Chromium by the executor (refused ones too),
is :mod:`tests.browser.mutant_runs`; it plugs in through :func:`confusion`'s ``real``
callable, and ``tests/browser/test_mutants_for_real.py`` asserts the matrix.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from automium import corpus
from automium.accessible_names import normalized
from automium.contracts import to_document
from automium.corpus.pages import Element
from automium.errors import AutomiumError
from automium.journeys import checked_journey, composition, observed, reference_journeys, targets
from automium.journeys.page_walk import Location

Document = dict[str, Any]

CLASSES = (
    "text",
    "count",
    "value",
    "order",
    "state",
    "control",
    "target",
    "lost-page",
    "wrong-branch",
    "prefix-state",
    "walk",
)
"""The classes of mistake a mutant makes; ``correct`` marks a correct dynamic variant.
``wrong-branch``: a guard that asks the opposite (visible for hidden), so the branch meant
for one fixture runs in the other; ``prefix-state``: a journey that relies on the page its
prefix leaves (its own first navigate dropped) starting from another journey of its fixture,
which leaves the app elsewhere. ``walk`` mutants start from seeded random walks, not
reference journeys: they visit the states a new user reaches off the reference journeys'
paths."""

REFUSED, UNCHECKED, VALID = "refused", "valid-unchecked", "valid"
VERDICTS = (REFUSED, UNCHECKED, VALID)


@dataclass(frozen=True)
class Mutant:
    """A journey and what was done to it."""

    name: str
    klass: str  # one of CLASSES, or "correct"
    journey: Document

    @property
    def wrong(self) -> bool:
        return self.klass != "correct"


def static_verdict(journey: Mapping[str, Any]) -> str:
    """What compile says of ``journey``: refused, valid with something that names the risk
    (an unchecked item or a warning), or valid silently."""
    try:
        checked = checked_journey(copy.deepcopy(dict(journey)))
    except AutomiumError:
        return REFUSED
    return UNCHECKED if checked.unchecked or checked.warnings else VALID


Real = Callable[[Mapping[str, Any]], str]
"""The real outcome of a journey: ``passed``, ``failed`` or ``refused`` (``automium run``'s
exit code 0, 1, 2)."""


def confusion(
    mutants: Sequence[Mutant],
    verdict: Callable[[Mapping[str, Any]], str] = static_verdict,
    real: Real | None = None,
) -> Counter[tuple[str, str]]:
    """Counts of (expected, static verdict). Without ``real``, the expected outcome is what
    the mutant meant (``fails`` for a mistake, ``passes`` for a correct variant); with it,
    the real run's outcome."""
    counts: Counter[tuple[str, str]] = Counter()
    for mutant in mutants:
        expected = real(mutant.journey) if real else ("fails" if mutant.wrong else "passes")
        counts[(expected, verdict(mutant.journey))] += 1
    return counts


def render(counts: Mapping[tuple[str, str], int]) -> str:
    """The confusion matrix as a small table."""
    rows = sorted({expected for expected, _ in counts})
    lines = ["expected \\ static  " + "  ".join(f"{v:>15}" for v in VERDICTS)]
    for row in rows:
        lines.append(f"{row:<18} " + "  ".join(f"{counts.get((row, v), 0):>15}" for v in VERDICTS))
    return "\n".join(lines)


# --- the walk of a reference journey ---------------------------------------------------------


@dataclass(frozen=True)
class _Point:
    """A step of a reference journey and the page after it."""

    index: int
    step_id: str
    location: Location


def _points(journey: Document) -> list[_Point]:
    walk = checked_journey(journey).walk
    return [_Point(v.index, v.step_id, v.after) for v in walk.visits if v.after is not None]


def _shown(location: Location) -> list[Element]:
    """Named elements the page shows for sure at this point (no dynamic sample)."""
    view = location.view
    return [
        e
        for e in view.elements()
        if view.name(e)
        and e.role in targets.ROLES
        and e.ancestors  # not the page's own document: no browser finds it by a name
        and location.visible(e)
        and not observed.uncertain(e, location)
    ]


def _target(element: Element, location: Location) -> Document:
    view = location.view
    name = view.name(element) or ""
    same = [
        e
        for e in view.elements_with_role(element.role)
        if targets.matches(e, element.role, name, view) and location.visible(e)
    ]
    target: Document = {"role": element.role, "name": name}
    if len(same) > 1:
        target["nth"] = same.index(element)
    return target


def _assert(journey: Document, after: str, **assertion: Any) -> Document:
    edited = copy.deepcopy(journey)
    edited["assertions"].append(
        {"id": f"mutant-{len(edited['assertions'])}", **assertion, "afterStep": after}
    )
    return edited


def _insert(journey: Document, index: int, step: Document) -> Document:
    edited = copy.deepcopy(journey)
    edited["steps"].insert(index, {"id": f"mutant-step-{index}", **step})
    return edited


# --- the classes -------------------------------------------------------------------------


def _text(journey: Document, points: Sequence[_Point]) -> Iterator[tuple[str, Document]]:
    """A text no page shows: an existing text assertion changed, and a heading or status
    asserted with a text the page model contradicts."""
    for i, assertion in enumerate(journey["assertions"]):
        if assertion["kind"] in ("text_equals", "text_contains"):
            edited = copy.deepcopy(journey)
            edited["assertions"][i]["expected"] = "Nothing like this " + assertion["expected"]
            yield f"assertion {assertion['id']} expects another text", edited
    for point in points:
        for element in _shown(point.location):
            if element.role in ("heading", "status", "alert") and not observed.dynamic(
                element, point.location
            ):
                yield (
                    f"after {point.step_id}: {element.line()} with a text it never shows",
                    _assert(
                        journey,
                        point.step_id,
                        kind="text_equals",
                        target=_target(element, point.location),
                        expected="A text no page shows",
                    ),
                )


def _count(journey: Document, points: Sequence[_Point]) -> Iterator[tuple[str, Document]]:
    """A count the page model contradicts: one more than the page shows."""
    for point in points:
        seen: set[tuple[str, str]] = set()
        for element in _shown(point.location):
            target = _target(element, point.location)
            key = (target["role"], target["name"])
            if key in seen or element.role not in ("button", "link", "checkbox", "row", "cell"):
                continue
            seen.add(key)
            view = point.location.view
            same = [
                e
                for e in view.elements_with_role(key[0])
                if targets.matches(e, key[0], key[1], view) and point.location.visible(e)
            ]
            if any(observed.uncertain(e, point.location) for e in same):
                continue
            yield (
                f"after {point.step_id}: {len(same) + 1} of {key[0]} {key[1]!r}",
                _assert(
                    journey,
                    point.step_id,
                    kind="count_equals",
                    target={"role": key[0], "name": key[1]},
                    count=len(same) + 1,
                ),
            )


def _value(journey: Document, points: Sequence[_Point]) -> Iterator[tuple[str, Document]]:
    """A value other than the one the journey typed or selected, asserted right after."""
    for point in points:
        step = journey["steps"][point.index]
        if step["intent"] in ("fill", "select_option") and "value" in step:
            yield (
                f"after {point.step_id}: a value other than the one it set",
                _assert(
                    journey,
                    point.step_id,
                    kind="value_equals",
                    target=step["target"],
                    expected=step["value"] + " (another)",
                ),
            )


def _order(journey: Document, points: Sequence[_Point]) -> Iterator[tuple[str, Document]]:
    """An assertion checked one step too early (before the step that makes it true), and a
    value asserted before the step that sets it."""
    steps = [s["id"] for s in journey["steps"]]
    for i, assertion in enumerate(journey["assertions"]):
        at = steps.index(assertion["afterStep"])
        if at == 0 or assertion["kind"] == "route_is":
            continue
        edited = copy.deepcopy(journey)
        edited["assertions"][i]["afterStep"] = steps[at - 1]
        yield f"assertion {assertion['id']} one step early", edited
    for point in points:
        step = journey["steps"][point.index]
        if step["intent"] in ("fill", "select_option") and "value" in step and point.index > 0:
            yield (
                f"the value {point.step_id} sets, asserted before it",
                _assert(
                    journey,
                    steps[point.index - 1],
                    kind="value_equals",
                    target=step["target"],
                    expected=normalized(step["value"]),
                ),
            )


def _state(journey: Document, points: Sequence[_Point]) -> Iterator[tuple[str, Document]]:
    """Unchecking a box that is not checked, checking one twice, asserting hidden what the
    page shows, and visible what it has not revealed yet."""
    for point in points:
        location = point.location
        for element in _shown(location):
            if element.role == "checkbox" and "disabled" not in location.view.states[element.index]:
                state = location.is_checked(element)
                yield (
                    f"after {point.step_id}: {'check' if state else 'uncheck'} {element.line()} "
                    "that is already so",
                    _insert(
                        journey,
                        point.index + 1,
                        {
                            "intent": "check" if state else "uncheck",
                            "target": _target(element, location),
                        },
                    ),
                )
        for element in _shown(location)[:6]:
            yield (
                f"after {point.step_id}: {element.line()} asserted hidden while shown",
                _assert(
                    journey,
                    point.step_id,
                    kind="hidden",
                    target=_target(element, location),
                ),
            )
        view = location.view
        for element in view.elements():
            if (
                view.name(element)
                and element.role in targets.ROLES
                and not location.visible(element)
                and not observed.uncertain(element, location)
                and not any(
                    location.visible(e)
                    for e in view.elements_with_role(element.role)
                    if targets.matches(e, element.role, view.name(element) or "", view)
                )
            ):
                yield (
                    f"after {point.step_id}: {element.line()} asserted visible before shown",
                    _assert(
                        journey,
                        point.step_id,
                        kind="visible",
                        target={"role": element.role, "name": view.name(element)},
                    ),
                )


_NOT_FOCUSABLE = ("heading", "status", "alert", "table", "region", "paragraph")


def _control(journey: Document, points: Sequence[_Point]) -> Iterator[tuple[str, Document]]:
    """The wrong kind of control: fill on a select or a box, a key on a heading, go_back
    with no history."""
    for point in points:
        location = point.location
        for element in _shown(location):
            target = _target(element, location)
            if observed.is_select(element, location) or element.role in ("checkbox", "radio"):
                yield (
                    f"after {point.step_id}: fill on {element.line()}",
                    _insert(
                        journey,
                        point.index + 1,
                        {"intent": "fill", "target": target, "value": "typed"},
                    ),
                )
            elif element.role in _NOT_FOCUSABLE:
                yield (
                    f"after {point.step_id}: a key pressed on {element.line()}",
                    _insert(
                        journey,
                        point.index + 1,
                        {"intent": "press_key", "key": "Enter", "target": target},
                    ),
                )
    yield "go_back first", _insert(journey, 0, {"intent": "go_back"})
    yield "go_back right after the first page", _insert(journey, 1, {"intent": "go_back"})


def _target_absent(journey: Document, _points: Sequence[_Point]) -> Iterator[tuple[str, Document]]:
    """A target absent from the page: each target renamed to a name nowhere in the app."""
    for section in ("steps", "assertions"):
        for i, item in enumerate(journey[section]):
            target = item.get("target")
            if not isinstance(target, dict) or "name" not in target:
                continue
            edited = copy.deepcopy(journey)
            edited[section][i]["target"]["name"] = target["name"] + " Zzq"
            yield f"{section}/{i}: a name nowhere in the app", edited


def _lost_page(journey: Document, _points: Sequence[_Point]) -> Iterator[tuple[str, Document]]:
    """A key with nothing in focus before the journey's last step, and a click on a button
    that exists nowhere in the app after it."""
    if len(journey["steps"]) < 2:
        return
    last = len(journey["steps"]) - 1
    lost = _insert(journey, last, {"intent": "press_key", "key": "Enter"})
    # The step after the lost page acts on a button no page of the app has.
    nowhere = copy.deepcopy(lost)
    nowhere["steps"].append(
        {"id": "mutant-nowhere", "intent": "click", "target": {"role": "button", "name": "Zzq"}}
    )
    yield "a button nowhere in the app, after a key with nothing in focus", nowhere


GENERATORS: Mapping[str, Callable[[Document, Sequence[_Point]], Iterator[tuple[str, Document]]]] = {
    "text": _text,
    "count": _count,
    "value": _value,
    "order": _order,
    "state": _state,
    "control": _control,
    "target": _target_absent,
    "lost-page": _lost_page,
}


# --- correct variants with dynamic content ----------------------------------------------------


def _journey(
    journey_id: str, app: str, fixture: str, steps: list[Document], assertions: list[Document]
) -> Document:
    return {
        "id": journey_id,
        "appId": app,
        "fixtureId": fixture,
        "goal": "A correct journey over dynamic content",
        "steps": [{"id": f"s{i}", **s} for i, s in enumerate(steps)],
        "assertions": [{"id": f"a{i}", **a} for i, a in enumerate(assertions)],
        "recovery": {"maxAttempts": 1, "strategies": ["retry_step"], "onExhausted": "fail_run"},
    }


def correct_variants() -> Iterator[Mutant]:
    """Correct journeys that use the cart, search results and a new todo."""
    products = ("Stoneware mug", "Enamel camp mug", "Linen tea towel")
    for fixture in ("shop-lite.guest-empty-cart", "shop-lite.returning-buyer"):
        for nth, product in enumerate(products):
            for kind, target in (
                ("visible", {"role": "cell", "name": product}),
                ("visible", {"role": "button", "name": f"Remove {product}"}),
                ("count_equals", {"role": "cell", "name": product}),
            ):
                extra = {"count": 1} if kind == "count_equals" else {}
                yield Mutant(
                    f"{fixture}: add {product}, {kind} {target['role']} in the cart",
                    "correct",
                    _journey(
                        "shop-lite.dynamic-cart",
                        "shop-lite",
                        fixture,
                        [
                            {"intent": "navigate", "route": "home"},
                            {
                                "intent": "click",
                                "target": {"role": "button", "name": "Add to cart", "nth": nth},
                            },
                            {"intent": "click", "target": {"role": "link", "name": "Cart"}},
                        ],
                        [{"kind": kind, "target": target, **extra, "afterStep": "s2"}],
                    ),
                )
        for query, product in (("mug", "Enamel camp mug"), ("towel", "Linen tea towel")):
            yield Mutant(
                f"{fixture}: search {query}, open {product} from the results",
                "correct",
                _journey(
                    "shop-lite.dynamic-search",
                    "shop-lite",
                    fixture,
                    [
                        {"intent": "navigate", "route": "home"},
                        {
                            "intent": "fill",
                            "target": {"role": "searchbox", "name": "Search"},
                            "value": query,
                        },
                        {"intent": "press_key", "key": "Enter"},
                        {"intent": "click", "target": {"role": "link", "name": product}},
                    ],
                    [
                        {"kind": "route_is", "route": "product", "afterStep": "s3"},
                        {
                            "kind": "visible",
                            "target": {"role": "heading", "name": product},
                            "afterStep": "s3",
                        },
                    ],
                ),
            )
    for fixture in ("todo-mvc.empty", "todo-mvc.three-items"):
        left = 1 if fixture.endswith("empty") else 4
        yield Mutant(
            f"{fixture}: add a todo, the counter says so",
            "correct",
            _journey(
                "todo-mvc.dynamic-new-todo",
                "todo-mvc",
                fixture,
                [
                    {"intent": "navigate", "route": "all"},
                    {
                        "intent": "fill",
                        "target": {"role": "textbox", "name": "What needs to be done?"},
                        "value": "Water the plants",
                    },
                    {"intent": "press_key", "key": "Enter"},
                ],
                [
                    {
                        "kind": "text_equals",
                        "target": {"role": "status", "name": "Items left"},
                        "expected": f"{left} item{'s' if left > 1 else ''} left",
                        "afterStep": "s2",
                    }
                ],
            ),
        )


def mutants() -> list[Mutant]:
    """Every mutant of every reference journey, class by class, then the correct ones: the
    reference journeys themselves and the dynamic variants."""
    found: list[Mutant] = []
    for reference in corpus.reference_journeys():
        written = to_document(reference)
        # The edits are made where the walk knows the page: on the journey as it runs, a
        # used journey's steps first (so a prefix's steps are mutated too).
        journey = dict(reference_journeys()[reference.id].document)
        points = _points(journey)
        for klass, generate in GENERATORS.items():
            for what, edited in generate(journey, points):
                found.append(Mutant(f"{reference.id}: {what}", klass, edited))
        for what, edited in _wrong_branch(written):
            found.append(Mutant(f"{reference.id}: {what}", "wrong-branch", edited))
        for what, edited in _prefix_state(written):
            found.append(Mutant(f"{reference.id}: {what}", "prefix-state", edited))
        found.append(Mutant(f"{reference.id}: as written", "correct", written))
    found.extend(correct_variants())
    found.extend(walk_mutants())
    return found


WALK_SEEDS = range(4)
WALK_LENGTH = 8


def walk_mutants() -> list[Mutant]:
    """From each seeded walk of each fixture (:mod:`automium.journeys.random_walk`), cut
    where the model last knows the page: the walk asserting the route the model says it is
    on (correct), another route (wrong), and a field's known value with more to it (wrong)."""
    from automium.journeys.random_walk import walk  # noqa: PLC0415 - the walker's own cost

    found: list[Mutant] = []
    for fixture in corpus.fixtures():
        for seed in WALK_SEEDS:
            walked = walk(fixture, seed, WALK_LENGTH)
            known = [i for i, w in enumerate(walked) if not w.unknown]
            if not known or any(w.unknown for w in walked[: known[-1]]):
                continue  # a walk the model stopped following before its end
            last = known[-1]
            location = walked[last].visit.after
            assert location is not None
            steps = [{"id": f"s{i}", **w.step} for i, w in enumerate(walked[: last + 1])]
            journey: Document = {
                "id": f"{fixture.app_id}.walk-{seed}",
                "appId": fixture.app_id,
                "fixtureId": fixture.id,
                "goal": "Follow a seeded random walk and check where it ends",
                "steps": steps,
                "assertions": [],
                "recovery": {
                    "maxAttempts": 1,
                    "strategies": ["retry_step"],
                    "onExhausted": "fail_run",
                },
            }
            after = f"s{last}"
            name = f"{fixture.id} walk {seed}"
            found.append(
                Mutant(
                    f"{name}: ends on {location.route}",
                    "correct",
                    _assert(journey, after, kind="route_is", route=location.route),
                )
            )
            other = next(
                r.id for r in corpus.get_app(fixture.app_id).routes if r.id != location.route
            )
            found.append(
                Mutant(
                    f"{name}: said to end on {other}",
                    "walk",
                    _assert(journey, after, kind="route_is", route=other),
                )
            )
            for element in _shown(location):
                value = observed.value(element, location)
                if element.role in ("textbox", "searchbox") and value:
                    found.append(
                        Mutant(
                            f"{name}: {element.line()} holds more",
                            "walk",
                            _assert(
                                journey,
                                after,
                                kind="value_equals",
                                target=_target(element, location),
                                expected=value + " and more",
                            ),
                        )
                    )
                    break
    return found


_OPPOSITE = {"visible": "hidden", "hidden": "visible"}


def _end_route(journey_id: str) -> str | None:
    """The route a reference journey ends on, as compile walks it."""
    last = reference_journeys()[journey_id].walk.visits[-1].after
    return last.route if last is not None else None


def _wrong_branch(journey: Document) -> Iterator[tuple[str, Document]]:
    """Each guard asking the opposite, run from the fixture that skipped the branch: the
    branch runs where it was meant to be skipped."""
    for index, step in enumerate(journey["steps"]):
        guard = step.get("when")
        if not guard or guard.get("kind") not in _OPPOSITE:
            continue
        if index and journey["steps"][index - 1].get("when") == guard:
            continue  # inside a branch: the guard is asked once, at its first step
        other = reference_journeys()[journey["id"]].walk.other_branch.get(index)
        if other is None or "uses" in journey:
            continue
        # From the fixture that takes the other branch: the flipped guard now holds there,
        # and the branch meant for the journey's own fixture runs where it cannot.
        edited = {**copy.deepcopy(journey), "fixtureId": other}
        for later in edited["steps"][index:]:
            if later.get("when") == guard:
                later["when"] = {**guard, "kind": _OPPOSITE[guard["kind"]]}
        yield (
            f"when {guard['kind']} -> {_OPPOSITE[guard['kind']]} at {step['id']}, as {other}",
            edited,
        )


def _prefix_state(journey: Document) -> Iterator[tuple[str, Document]]:
    """A journey that uses another, its own first navigate dropped (it now starts on the
    page its prefix leaves), starting from each other sign-in-free journey of its fixture."""
    used = journey.get("uses")
    if not used or journey["steps"][0]["intent"] != "navigate" or len(journey["steps"]) < 2:
        return
    dropped = journey["steps"][0]["id"]
    for other in corpus.reference_journeys(journey["fixtureId"]):
        if other.id in (used, journey["id"]) or other.uses is not None:
            continue
        if _end_route(other.id) == _end_route(used):
            continue  # it leaves the app where the prefix does: no wrong state
        edited = copy.deepcopy(journey)
        edited["uses"] = other.id
        edited["steps"] = edited["steps"][1:]
        edited["assertions"] = [a for a in edited["assertions"] if a["afterStep"] != dropped]
        # Only a journey that can start there: no step or assertion id the prefix has.
        if edited["assertions"] and not isinstance(composition.expand(edited), list):
            yield f"uses {other.id}, without {dropped}", edited


def by_class(
    mutants: Sequence[Mutant], verdict: Callable[[Mapping[str, Any]], str] = static_verdict
) -> dict[str, Counter[str]]:
    """Per class, how many mutants got each static verdict."""
    table: dict[str, Counter[str]] = {}
    for mutant in mutants:
        table.setdefault(mutant.klass, Counter())[verdict(mutant.journey)] += 1
    return table


def main() -> None:
    """Print the confusion matrix and the verdicts per class of the full set."""
    found = mutants()
    print(f"{len(found)} journeys, {sum(m.wrong for m in found)} wrong")
    for klass, verdicts in sorted(by_class(found).items()):
        print(f"{klass:<10} " + ", ".join(f"{v}: {verdicts[v]}" for v in VERDICTS))
    print(render(confusion(found)))


if __name__ == "__main__":
    main()


__all__ = [
    "CLASSES",
    "Mutant",
    "by_class",
    "confusion",
    "correct_variants",
    "mutants",
    "render",
    "static_verdict",
]
