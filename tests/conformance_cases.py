"""Journeys that once split the page models from the apps, each with the verdict compile
gives it now and the outcome a real run has.

Each was found off the reference journeys' path (a select's value, a second page of
results, an edited transfer, a balance after one, an empty reply, ``"nth": 3.0``). A
domain test holds compile's verdict (``tests/domain/test_conformance_cases.py``); the
browser tier runs each for real (``tests/browser/test_conformance_cases.py``): a journey
compile calls valid silently passes, one it refuses fails, and one it marks unchecked may
do either, as only a run can say.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tests.journey_mutants import REFUSED, UNCHECKED, VALID

Document = dict[str, Any]


@dataclass(frozen=True)
class Case:
    name: str
    journey: Document
    static: str  # REFUSED, UNCHECKED or VALID
    passes: bool  # what a real run does


def journey(app: str, fixture: str, steps: list[Document], assertions: list[Document]) -> Document:
    for i, step in enumerate(steps):
        step.setdefault("id", f"s{i}")
    for i, assertion in enumerate(assertions):
        assertion.setdefault("id", f"a{i}")
    return {
        "id": f"{app}.conformance",
        "appId": app,
        "fixtureId": f"{app}.{fixture}",
        "goal": "Hold the page model to the app",
        "steps": steps,
        "assertions": assertions,
        "recovery": {"maxAttempts": 1, "strategies": ["retry_step"], "onExhausted": "fail_run"},
    }


def _nav(route: str, **more: Any) -> Document:
    return {"intent": "navigate", "route": route, **more}


def _t(role: str, name: str, **more: Any) -> Document:
    return {"role": role, "name": name, **more}


def _sort_by(expected: str, *, choose: str | None = None) -> Document:
    steps = [_nav("search")]
    if choose is not None:
        target = _t("combobox", "Sort by")
        steps.append({"intent": "select_option", "target": target, "value": choose})
    return journey(
        "shop-lite",
        "guest-empty-cart",
        steps,
        [
            {
                "kind": "value_equals",
                "target": _t("combobox", "Sort by"),
                "expected": expected,
                "afterStep": f"s{len(steps) - 1}",
            }
        ],
    )


def _transfer(*more: Document) -> list[Document]:
    return [
        _nav("transfer"),
        {"intent": "fill", "target": _t("textbox", "Amount"), "value": "75"},
        {"intent": "click", "target": _t("button", "Review transfer")},
        *more,
    ]


OTP = "account:bank-sandbox/customer#one-time-code"


def _add_to_cart(nth: float) -> Document:
    return journey(
        "shop-lite",
        "guest-empty-cart",
        [_nav("home"), {"intent": "click", "target": _t("button", "Add to cart", nth=nth)}],
        [{"kind": "visible", "target": _t("status", "Cart updates"), "afterStep": "s1"}],
    )


CASES = (
    # A select's value is the chosen option's value, as Playwright's toHaveValue reads it.
    Case("select value is the option's value", _sort_by("relevance"), VALID, True),
    Case("select value is not the option's label", _sort_by("Relevance"), REFUSED, False),
    # Choosing a sort loads the page again: whether it keeps the choice is the app's.
    Case(
        "a select that loads a page",
        _sort_by("price-asc", choose="Price: low to high"),
        UNCHECKED,
        True,
    ),
    # A second page of results enables "Previous page": only a run knows which page it is.
    Case(
        "previous page on a second page",
        journey(
            "shop-lite",
            "guest-empty-cart",
            [
                _nav("search"),
                {"intent": "click", "target": _t("link", "Next page")},
                {"intent": "click", "target": _t("link", "Previous page")},
            ],
            [{"kind": "route_is", "route": "search", "afterStep": "s2"}],
        ),
        UNCHECKED,
        True,
    ),
    # "Edit transfer" brings the draft back, its amount formatted by the app.
    Case(
        "edited transfer keeps its amount",
        journey(
            "bank-sandbox",
            "two-accounts",
            _transfer({"intent": "click", "target": _t("button", "Edit transfer")}),
            [
                {
                    "kind": "value_equals",
                    "target": _t("textbox", "Amount"),
                    "expected": "75.00",
                    "afterStep": "s3",
                }
            ],
        ),
        UNCHECKED,
        True,
    ),
    # A balance the app computes: the model does not know it, so it does not refuse it.
    Case(
        "balance after a transfer",
        journey(
            "bank-sandbox",
            "two-accounts",
            _transfer(
                {"intent": "click", "target": _t("button", "Confirm transfer")},
                {"intent": "fill", "target": _t("textbox", "One-time code"), "secretRef": OTP},
                {"intent": "click", "target": _t("button", "Verify")},
                {"intent": "click", "target": _t("link", "Back to accounts")},
            ),
            [{"kind": "visible", "target": _t("cell", "$3,165.18"), "afterStep": "s6"}],
        ),
        UNCHECKED,
        True,
    ),
    # The desk refuses an empty reply: no "Reply sent" follows.
    Case(
        "empty reply is not sent",
        journey(
            "helpdesk",
            "agent-open-queue",
            [
                _nav("ticket", entity="printer-offline"),
                {"intent": "click", "target": _t("button", "Send reply")},
                {"intent": "wait_for", "target": _t("status", "Notification"), "state": "visible"},
            ],
            [{"kind": "route_is", "route": "ticket", "afterStep": "s2"}],
        ),
        REFUSED,
        False,
    ),
    Case(
        "a written reply is sent",
        journey(
            "helpdesk",
            "agent-open-queue",
            [
                _nav("ticket", entity="printer-offline"),
                {"intent": "fill", "target": _t("textbox", "Reply"), "value": "On it."},
                {"intent": "click", "target": _t("button", "Send reply")},
                {"intent": "wait_for", "target": _t("status", "Notification"), "state": "visible"},
            ],
            [{"kind": "route_is", "route": "ticket", "afterStep": "s3"}],
        ),
        VALID,
        True,
    ),
    # JSON Schema's integer 3.0 is 3: out of range on a page with three buttons.
    Case("nth 3.0 is nth 3", _add_to_cart(3.0), REFUSED, False),
    Case("nth 2.0 is nth 2", _add_to_cart(2.0), VALID, True),
)
