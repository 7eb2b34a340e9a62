"""Compile checks a journey against the pages it goes through: every step and assertion is
refused with a stable code, the exact path and the candidates an agent can use instead, and
suspicious-but-valid journeys compile with warnings.

Each case edits a reference journey (which compiles with no problem and no warning, see
``test_corpus.py``), so the one edit is the only thing wrong. Messages are asserted only
where the issue makes them part of the answer (the route where an element is, the account
ref to use); everything else is codes, paths and ``allowed`` lists.
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from automium import corpus
from automium.accessible_names import normalized
from automium.compilation import compilation_document
from automium.contracts import ErrorCode, UncheckedReason, WarningCode
from automium.corpus.pages import page, pages
from automium.errors import AutomiumError
from automium.journeys import check_journey
from automium.journeys.targets import locator_syntax
from tests.cases import reference_journey
from tests.conftest import examples
from tests.mutations import Mutation, all_of, drop_at, insert_at, set_at

Expected = list[tuple[ErrorCode, str, tuple[str, ...]]]

MUG = "shop-lite.buy-one-mug"
GUEST = "shop-lite.guest-browse-then-checkout-gate"
REORDER = "shop-lite.reorder-from-history"
THREE = "todo-mvc.complete-delete-and-filter"
IMPORT = "admin-console.import-users-csv"
AUDITOR = "admin-console.auditor-cannot-edit-user"
SETTINGS = "admin-console.admin-updates-settings"
SIGN_IN = "admin-console.admin-signs-back-in"
REPLY = "helpdesk.reply-and-solve-ticket"
TRANSFER = "bank-sandbox.transfer-to-savings"
LOCKED = "bank-sandbox.locked-account-notice"

TICKETS = ("printer-offline", "vpn-drops", "new-laptop")
ROWS = ("Buy milk", "Walk the dog", "Pay rent")


def step(step_id: str, intent: str, **fields: Any) -> dict[str, Any]:
    return {"id": step_id, "intent": intent, **fields}


def button(name: str) -> dict[str, str]:
    return {"role": "button", "name": name}


def ref_of(app_id: str, route_id: str, role: str, name: str) -> str:
    """The snapshot ref of an element, as an agent would copy it from a snapshot."""
    return next(e.ref for e in page(app_id, route_id).elements if (e.role, e.name) == (role, name))


def problems_of(document: dict[str, Any]) -> list[tuple[ErrorCode, str, tuple[str | int, ...]]]:
    return [(p.code, p.path, p.allowed) for p in check_journey(document).problems]


def edited(journey_id: str, mutate: Mutation) -> dict[str, Any]:
    document = reference_journey(journey_id)
    mutate(document)
    return document


# --- problems ---------------------------------------------------------------------------

PROBLEMS: list[tuple[str, str, Mutation, Expected]] = [
    (
        "a near-miss name (another case)",
        MUG,
        set_at("steps", 5, "target", "name", value="Place Order"),
        [
            (
                ErrorCode.UNKNOWN_TARGET,
                "/steps/5/target",
                ('button "Place order"', 'button "Change address"'),
            )
        ],
    ),
    (
        "a target that exists on another route than the current one",
        MUG,
        set_at("steps", 4, "route", value="cart"),
        [
            (
                ErrorCode.UNKNOWN_TARGET,
                "/steps/5/target",
                # Not the cart's sample row: a run may not show it, so it is no fix.
                ('button "Search"',),
            )
        ],
    ),
    (
        # On the home page's featured list, which no journey changes (the search results
        # are a dynamic list: a run may show more rows than the model's sample).
        "nth past the last match",
        MUG,
        all_of(
            drop_at("steps", 2), drop_at("steps", 1), set_at("steps", 1, "target", "nth", value=5)
        ),
        [
            (
                ErrorCode.UNKNOWN_TARGET,
                "/steps/1/target/nth",
                (
                    '0: button "Add to cart" in listitem "$18.00"',
                    '1: button "Add to cart" in listitem "$14.00"',
                    '2: button "Add to cart" in listitem "$9.50"',
                ),
            )
        ],
    ),
    (
        "a repeated per-item control without nth",
        THREE,
        drop_at("steps", 1, "target", "nth"),
        [
            (
                ErrorCode.AMBIGUOUS_TARGET,
                "/steps/1/target",
                tuple(
                    f'{i}: checkbox "Toggle Todo" in listitem "{row}"' for i, row in enumerate(ROWS)
                ),
            )
        ],
    ),
    (
        "an assertion on a repeated control without nth",
        THREE,
        set_at("assertions", 0, "target", value={"role": "button", "name": "Delete"}),
        # After "Active" the list is the two rows left; the page model keeps all three rows
        # (which rows a filter shows depends on the journey), so all three are candidates.
        [
            (
                ErrorCode.AMBIGUOUS_TARGET,
                "/assertions/0/target",
                tuple(f'{i}: button "Delete" in listitem "{row}"' for i, row in enumerate(ROWS)),
            )
        ],
    ),
    (
        "the role btn",
        MUG,
        set_at("steps", 5, "target", "role", value="btn"),
        [(ErrorCode.UNKNOWN_ROLE, "/steps/5/target/role", ("button",))],
    ),
    (
        "a CSS selector as a name",
        THREE,
        set_at("steps", 1, "target", "name", value="#todo-list li:nth-child(2) .toggle"),
        [(ErrorCode.INVALID_LOCATOR, "/steps/1/target/name", ())],
    ),
    (
        "an XPath as a name",
        THREE,
        set_at("steps", 1, "target", "name", value="//li[2]/input"),
        [(ErrorCode.INVALID_LOCATOR, "/steps/1/target/name", ())],
    ),
    (
        "a selector engine as a name",
        MUG,
        set_at("steps", 1, "target", "name", value="xpath=//input"),
        [(ErrorCode.INVALID_LOCATOR, "/steps/1/target/name", ())],
    ),
    (
        "a Playwright selector chain as a name",
        MUG,
        set_at("steps", 1, "target", "name", value="text=Search >> nth=0"),
        [(ErrorCode.INVALID_LOCATOR, "/steps/1/target/name", ())],
    ),
    (
        "a script URL as a name",
        MUG,
        set_at("steps", 5, "target", "name", value="javascript:alert(1)"),
        [(ErrorCode.INVALID_LOCATOR, "/steps/5/target/name", ())],
    ),
    (
        "fill on a button",
        MUG,
        set_at("steps", 1, "target", value=button("Search")),
        [(ErrorCode.TARGET_NOT_ACTIONABLE, "/steps/1/target", ())],
    ),
    (
        "check on a link",
        MUG,
        set_at("steps", 1, value=step("tick", "check", target={"role": "link", "name": "Cart"})),
        [(ErrorCode.TARGET_NOT_ACTIONABLE, "/steps/1/target", ())],
    ),
    (
        "select_option on a searchbox",
        MUG,
        set_at(
            "steps",
            1,
            value=step(
                "pick", "select_option", target={"role": "searchbox", "name": "Search"}, value="mug"
            ),
        ),
        [(ErrorCode.TARGET_NOT_ACTIONABLE, "/steps/1/target", ())],
    ),
    (
        "a control disabled in bank-sandbox.locked-account",
        LOCKED,
        set_at("steps", 2, value=step("move", "click", target=button("Move money"))),
        [(ErrorCode.TARGET_NOT_ACTIONABLE, "/steps/2/target", ())],
    ),
    (
        "a control behind the open dialog",
        IMPORT,
        set_at("steps", 2, value=step("invite", "click", target=button("Invite user"))),
        [(ErrorCode.TARGET_NOT_ACTIONABLE, "/steps/2/target", ())],
    ),
    (
        "value_equals on an element that has no value",
        REPLY,
        set_at("assertions", 1, "target", value=button("Send reply")),
        [(ErrorCode.TARGET_NOT_ACTIONABLE, "/assertions/1/target", ())],
    ),
    (
        "an option the select does not have",
        IMPORT,
        set_at("steps", 6, "value", value="Editors"),
        [(ErrorCode.UNKNOWN_OPTION, "/steps/6/value", ("All roles", "Admin", "Editor", "Viewer"))],
    ),
    (
        "a missing route parameter",
        REPLY,
        set_at("steps", 1, value=step("open-ticket", "navigate", route="ticket")),
        [(ErrorCode.MISSING_ROUTE_PARAM, "/steps/1/entity", TICKETS)],
    ),
    (
        "an entity the fixture does not have",
        REPLY,
        set_at(
            "steps", 1, value=step("open-ticket", "navigate", route="ticket", entity="printer-on")
        ),
        [(ErrorCode.UNKNOWN_ROUTE_PARAM, "/steps/1/entity", TICKETS)],
    ),
    (
        "an entity for a route without a parameter",
        REPLY,
        set_at("steps", 0, "entity", value="printer-offline"),
        [(ErrorCode.UNKNOWN_ROUTE_PARAM, "/steps/0/entity", ())],
    ),
    (
        "a file the fixture does not ship",
        IMPORT,
        set_at("steps", 2, "fileRef", value="file:admin-console/people.csv"),
        [(ErrorCode.UNKNOWN_FILE_REF, "/steps/2/fileRef", ("file:admin-console/users.csv",))],
    ),
    (
        "a .. in a fileRef",
        IMPORT,
        set_at("steps", 2, "fileRef", value="file:admin-console/.."),
        [(ErrorCode.UNKNOWN_FILE_REF, "/steps/2/fileRef", ("file:admin-console/users.csv",))],
    ),
    (
        "a literal password",
        SIGN_IN,
        all_of(drop_at("steps", 3, "secretRef"), set_at("steps", 3, "value", value="hunter2")),
        [(ErrorCode.LITERAL_SECRET, "/steps/3/value", ("account:admin-console/admin#password",))],
    ),
    (
        "a literal one-time code in the dialog's iframe",
        TRANSFER,
        all_of(drop_at("steps", 6, "secretRef"), set_at("steps", 6, "value", value="123456")),
        [
            (
                ErrorCode.LITERAL_SECRET,
                "/steps/6/value",
                ("account:bank-sandbox/customer#one-time-code",),
            )
        ],
    ),
    (
        # The tracker cannot say which page this is, but a literal typed into what the app's
        # pages call a password field would reach the graph's labels: still refused.
        "a literal password on a page the tracker does not know",
        MUG,
        set_at(
            "steps",
            0,
            value=step(
                "type", "fill", target={"role": "textbox", "name": "Password"}, value="hunter2"
            ),
        ),
        [(ErrorCode.LITERAL_SECRET, "/steps/0/value", ("account:shop-lite/buyer#password",))],
    ),
    (
        "a secretRef of the wrong kind",
        TRANSFER,
        set_at("steps", 6, "secretRef", value="account:bank-sandbox/customer#password"),
        [
            (
                ErrorCode.INVALID_INPUT,
                "/steps/6/secretRef",
                ("account:bank-sandbox/customer#one-time-code",),
            )
        ],
    ),
    (
        "an assertion on an element that only appears on another page",
        MUG,
        set_at("assertions", 1, "target", value={"role": "heading", "name": "Your orders"}),
        [
            (
                ErrorCode.UNKNOWN_TARGET,
                "/assertions/1/target",
                ('heading "Thank you for your order"',),
            )
        ],
    ),
    (
        "an assertion before the step that reveals its element",
        REORDER,
        set_at("assertions", 2, "afterStep", value="open-mug"),
        [(ErrorCode.UNKNOWN_TARGET, "/assertions/2/target", ())],
    ),
    (
        "route_is naming a route the journey is not on",
        MUG,
        set_at("assertions", 0, "route", value="cart"),
        [(ErrorCode.ROUTE_NOT_REACHED, "/assertions/0/route", ("order-confirmation",))],
    ),
    (
        "route_is naming the route a fixture's redirect left",
        GUEST,
        set_at("assertions", 2, "route", value="checkout"),
        [(ErrorCode.ROUTE_NOT_REACHED, "/assertions/2/route", ("login",))],
    ),
    (
        "waiting for a dialog to close with a misspelt name",
        IMPORT,
        insert_at(
            "steps",
            4,
            value=step(
                "wait-closed",
                "wait_for",
                target={"role": "dialog", "name": "Import user"},
                state="hidden",
            ),
        ),
        [
            (
                ErrorCode.UNKNOWN_TARGET,
                "/steps/4/target",
                ('dialog "Import users"', 'dialog "Invite user"'),
            )
        ],
    ),
    (
        "a snapshot ref to a node the page does not have",
        MUG,
        set_at("steps", 3, "target", value={"ref": "e999999"}),
        [(ErrorCode.UNKNOWN_TARGET, "/steps/3/target", ())],
    ),
]


@pytest.mark.parametrize(
    ("journey_id", "mutate", "expected"),
    [pytest.param(j, m, e, id=name) for name, j, m, e in PROBLEMS],
)
def test_a_step_or_assertion_the_pages_refute_is_refused_with_its_code_path_and_candidates(
    journey_id: str, mutate: Mutation, expected: Expected
) -> None:
    document = edited(journey_id, mutate)

    assert problems_of(document) == expected
    with pytest.raises(AutomiumError) as refused:
        compilation_document(document)
    assert [(p.code, p.path, p.allowed) for p in refused.value.problems] == expected


def test_an_unknown_target_names_the_route_it_is_on_and_the_route_the_journey_is_on() -> None:
    document = edited(MUG, set_at("steps", 4, "route", value="cart"))

    (problem,) = check_journey(document).problems

    assert "checkout" in problem.message
    assert "cart" in problem.message


def test_a_literal_secret_names_the_account_ref_to_use_instead() -> None:
    document = edited(
        SIGN_IN,
        all_of(drop_at("steps", 3, "secretRef"), set_at("steps", 3, "value", value="hunter2")),
    )

    (problem,) = check_journey(document).problems

    assert "account:admin-console/admin#password" in problem.message
    assert "hunter2" not in problem.message


def test_a_journey_with_several_page_problems_reports_all_of_them_in_one_pass() -> None:
    document = reference_journey(IMPORT)
    document["steps"][2]["fileRef"] = "file:admin-console/people.csv"
    document["steps"][6]["value"] = "Editors"
    document["assertions"][1]["target"]["role"] = "btn"
    document["assertions"][2]["route"] = "settings"

    assert [(p.code, p.path) for p in check_journey(document).problems] == [
        (ErrorCode.UNKNOWN_ROLE, "/assertions/1/target/role"),
        (ErrorCode.ROUTE_NOT_REACHED, "/assertions/2/route"),
        (ErrorCode.UNKNOWN_FILE_REF, "/steps/2/fileRef"),
        (ErrorCode.UNKNOWN_OPTION, "/steps/6/value"),
    ]


def test_a_refused_step_that_cannot_change_the_page_keeps_the_walk_going() -> None:
    # An uncheck leaves the page as it was, refused or not: the wrong option after it is
    # found in the same answer.
    document = reference_journey(IMPORT)
    document["steps"][5]["target"]["role"] = "btn"
    document["steps"][6]["value"] = "Editors"

    assert [(p.code, p.path) for p in check_journey(document).problems] == [
        (ErrorCode.UNKNOWN_ROLE, "/steps/5/target/role"),
        (ErrorCode.UNKNOWN_OPTION, "/steps/6/value"),
    ]


def test_a_refused_click_leaves_the_page_unknown_so_later_page_checks_wait_for_a_navigate() -> None:
    # Where a refused click leads is unknown, so the tracker does not guess.
    document = reference_journey(MUG)
    document["steps"][5]["target"]["name"] = "Pay now"
    document["assertions"][1]["expected"] = "Sorry"

    assert [(p.code, p.path) for p in check_journey(document).problems] == [
        (ErrorCode.UNKNOWN_TARGET, "/steps/5/target")
    ]


# --- warnings ---------------------------------------------------------------------------

WARNINGS: list[tuple[str, str, Mutation, list[tuple[WarningCode, str]]]] = [
    (
        "not starting with navigate",
        MUG,
        drop_at("steps", 0),
        [(WarningCode.NO_INITIAL_NAVIGATE, "/steps/0")],
    ),
    (
        "a snapshot ref for a step's target",
        MUG,
        set_at(
            "steps",
            5,
            "target",
            value={"ref": ref_of("shop-lite", "checkout", "button", "Place order")},
        ),
        [(WarningCode.SNAPSHOT_REF, "/steps/5/target")],
    ),
    (
        "a snapshot ref for a hidden assertion's target",
        AUDITOR,
        set_at(
            "assertions",
            1,
            "target",
            value={"ref": ref_of("admin-console", "user-detail", "button", "Edit user")},
        ),
        [(WarningCode.SNAPSHOT_REF, "/assertions/1/target")],
    ),
    (
        "a link the model does not follow",
        MUG,
        set_at(
            "steps",
            1,
            value=step(
                "shipping", "click", target={"role": "link", "name": "Shipping and returns"}
            ),
        ),
        [(WarningCode.UNKNOWN_EFFECT, "/steps/1")],
    ),
    (
        "Enter with nothing in focus",
        MUG,
        drop_at("steps", 1),
        [(WarningCode.UNKNOWN_EFFECT, "/steps/1")],
    ),
]


@pytest.mark.parametrize(
    ("journey_id", "mutate", "expected"),
    [pytest.param(j, m, e, id=name) for name, j, m, e in WARNINGS],
)
def test_a_suspicious_journey_compiles_as_valid_with_each_warning_at_its_path(
    journey_id: str, mutate: Mutation, expected: list[tuple[WarningCode, str]]
) -> None:
    compilation = compilation_document(edited(journey_id, mutate))

    assert compilation["valid"] is True
    assert [(w["code"], w["path"]) for w in compilation["warnings"]] == expected
    assert all(w["message"].strip() for w in compilation["warnings"])


LOST = set_at(
    "steps",
    1,
    value=step("shipping", "click", target={"role": "link", "name": "Shipping and returns"}),
)


def test_after_an_unknown_effect_what_follows_is_listed_unchecked_until_the_next_navigate() -> None:
    # "Place order" is on checkout, not here: refused on a page the tracker follows...
    elsewhere = set_at("steps", 3, "target", value=button("Place order"))
    assert [(c, p) for c, p, _ in problems_of(edited(MUG, elsewhere))] == [
        (ErrorCode.UNKNOWN_TARGET, "/steps/3/target")
    ]
    # ...after a link it cannot follow, unchecked and said so, step by step; the navigate
    # to checkout that follows is checked again.
    compilation = compilation_document(edited(MUG, all_of(elsewhere, LOST)))
    assert [(w["code"], w["path"]) for w in compilation["warnings"]] == [
        (WarningCode.UNKNOWN_EFFECT, "/steps/1")
    ]
    assert [(u["path"], u["reason"]) for u in compilation["unchecked"]] == [
        ("/steps/2", UncheckedReason.UNKNOWN_PAGE),
        ("/steps/3", UncheckedReason.UNKNOWN_PAGE),
    ]
    assert all(
        u["message"].endswith("proven only by a run (automium run)")
        for u in compilation["unchecked"]
    )
    with pytest.raises(AutomiumError) as refused:
        compilation_document(
            edited(MUG, all_of(elsewhere, LOST, set_at("steps", 5, "target", "name", value="Pay")))
        )
    assert [(p.code, p.path) for p in refused.value.problems] == [
        (ErrorCode.UNKNOWN_TARGET, "/steps/5/target")
    ]


def test_a_target_that_exists_nowhere_in_the_app_is_refused_even_where_the_page_is_unknown() -> (
    None
):
    document = edited(
        MUG, all_of(LOST, set_at("steps", 3, "target", "name", value="Frobnicate the widget"))
    )

    assert [(c, p) for c, p, _ in problems_of(document)] == [
        (ErrorCode.UNKNOWN_TARGET, "/steps/3/target")
    ]


def test_waiting_for_a_dialog_to_close_compiles_without_a_problem_or_a_warning() -> None:
    document = edited(
        IMPORT,
        insert_at(
            "steps",
            4,
            value=step(
                "wait-closed",
                "wait_for",
                target={"role": "dialog", "name": "Import users"},
                state="hidden",
            ),
        ),
    )

    assert compilation_document(document)["warnings"] == []


# --- property: any target renamed off its page is unknown_target there --------------------


@cache
def _names(app_id: str) -> frozenset[str]:
    """Every accessible name and entity label any fixture of the app can see."""
    names = {
        normalized(view.name(e) or "")
        for fixture in corpus.fixtures(app_id)
        for template in pages(app_id)
        for view in [template.view(fixture, None)]
        for e in view.elements()
    }
    names |= {normalized(e.label) for f in corpus.fixtures(app_id) for e in f.entities}
    return frozenset(names)


def _target_paths() -> list[tuple[str, str, int]]:
    """(journey id, section, index) of every role-and-name target of the reference journeys."""
    return [
        (journey.id, section, index)
        for journey in corpus.reference_journeys()
        for section in ("steps", "assertions")
        for index, item in enumerate(reference_journey(journey.id)[section])
        if "name" in item.get("target", {})
    ]


@st.composite
def renamed_targets(draw: st.DrawFn) -> tuple[dict[str, Any], str]:
    """A reference journey with one target renamed to a name none of its app's pages has
    (often a near-miss of the real one), and that target's path."""
    journey_id, section, index = draw(st.sampled_from(_target_paths()))
    document = reference_journey(journey_id)
    target = document[section][index]["target"]
    original: str = target["name"]
    name = draw(
        st.one_of(
            st.sampled_from([original.upper(), original.lower(), f"{original} now", original[1:]]),
            st.text(st.sampled_from("abcdefghijklmnopqrstuvwxyz ABCXYZ"), min_size=1, max_size=30),
        ).filter(
            lambda n: (
                normalized(n) != ""
                and normalized(n) not in _names(document["appId"])
                and locator_syntax(n) is None
            )
        )
    )
    broken = copy.deepcopy(document)
    broken[section][index]["target"]["name"] = name
    return broken, f"/{section}/{index}/target"


@settings(max_examples=examples(at_most=100), deadline=None)
@given(renamed_targets())
def test_renaming_any_target_of_a_reference_journey_off_its_page_is_unknown_target_there(
    case: tuple[dict[str, Any], str],
) -> None:
    document, path = case

    assert [(p.code, p.path) for p in check_journey(document).problems] == [
        (ErrorCode.UNKNOWN_TARGET, path)
    ]
