"""Which reference journeys the run tests take, and each one's failing variant.

Under ``CI=true`` every reference journey runs; elsewhere a slice (:data:`SLICE`, and
:data:`VARIANT_SLICE` failing variants) keeps ``make test`` inside its budget. A journey
whose app is not built yet skips, except in CI.

A journey's failing variant breaks its page with one fault the app is started with: the
element of its first targeted step is removed. It fails at the first step that needs that
element: that step's action finds nothing (``planner_issue``: the action failed on the
element the decision named), or an assertion after an earlier step does not hold
(``product_issue``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import pytest

from automium import corpus
from automium.contracts import Journey, to_document
from automium.hosting import Fault
from automium.hosting.bundles import app_root

CI = os.environ.get("CI") == "true"
SLICE = (
    "todo-mvc.add-two-todos",
    "todo-mvc.complete-delete-and-filter",
    "shop-lite.buy-one-mug",
    "shop-lite.guest-browse-then-checkout-gate",
)
VARIANT_SLICE = ("todo-mvc.add-two-todos", "shop-lite.buy-one-mug")
TIMEOUT_MS = 5000
"""Each action's and assertion's bound in a passing run, which never waits it out: on a
loaded machine (CI's slowest tier) a first navigation once took longer than 1.5 s."""
FAILING_TIMEOUT_MS = 1000
"""The bound in a failing variant: its failing step waits it out once per attempt."""


@dataclass(frozen=True)
class Variant:
    fault: Fault
    step_id: str
    failure_class: str


WORKED_EXAMPLE = "shop-lite.buy-one-mug"
BROKEN_CONFIRMATION = Variant(
    Fault("remove", "heading", "Thank you for your order"), "pay", "product_issue"
)
"""The worked example without its confirmation heading: step "pay"'s assertion fails."""
BROKEN_CHECKOUT = Variant(Fault("remove", "button", "Place order"), "pay", "planner_issue")
"""The worked example without the button step "pay" clicks, retried until its bound."""
EXPORT_VARIANTS = [BROKEN_CONFIRMATION, BROKEN_CHECKOUT] if CI else [BROKEN_CONFIRMATION]
"""The worked example's broken pages that its exported tests run on (tests/export): each
fails there at the step where ``automium run`` fails."""


def built(app_id: str) -> bool:
    return (app_root(app_id) / "index.html").is_file()


def journeys(chosen: tuple[str, ...], *, straight: bool = False) -> list[object]:
    """Parameters, one per reference journey (all in CI, else ``chosen``); ``straight``:
    only those with no ``uses`` and no guard (a removed element can break a prefix, or turn
    a branch off: those are the matrix's prefix-state and wrong-branch mutants)."""
    params: list[object] = []
    for journey in corpus.reference_journeys():
        if not CI and journey.id not in chosen:
            continue
        if straight and (journey.uses or any(s.when for s in journey.steps)):
            continue
        marks = [] if built(journey.app_id) or CI else [pytest.mark.skip(reason="app not built")]
        params.append(pytest.param(journey.id, id=journey.id, marks=marks))
    return params


def reference(journey_id: str) -> Journey:
    return next(j for j in corpus.reference_journeys() if j.id == journey_id)


def variant(journey: Journey) -> Variant:
    """The failing variant of ``journey``: its first targeted element removed."""
    document = to_document(journey)
    steps = document["steps"]
    first = next(s for s in steps if "role" in s.get("target", {}))
    role, name = first["target"]["role"], first["target"]["name"]

    def names_it(item: dict[str, object]) -> bool:
        target = item.get("target")
        return isinstance(target, dict) and (target.get("role"), target.get("name")) == (
            role,
            name,
        )

    for step in steps:
        if names_it(step):
            return Variant(Fault("remove", role, name), step["id"], "planner_issue")
        for assertion in document["assertions"]:
            if (
                assertion["afterStep"] == step["id"]
                and names_it(assertion)
                and assertion["kind"] != "hidden"
            ):
                return Variant(Fault("remove", role, name), step["id"], "product_issue")
    raise AssertionError(f"{journey.id} has no targeted step")
