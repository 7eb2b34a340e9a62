"""Every owned app proven against its page models in headless Chromium (see proof.py).

Parametrised over every app with a directory under ``automium/corpus/apps/``: an app added
there is proven by this file with no change to it. ``SETUPS`` says, where a model element
with an effect is a ``[dynamic]`` one that a fixture's starting state does not show, or an
effect a realistic form refuses to give without input (a CSV file, a right password, an
amount), what a user does first; ``ARRIVALS`` how a user reaches a page that a fixture's
seed does not hold until the user acts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from automium.hosting.bundles import app_root, secret
from tests.browser.proof import (
    EffectCase,
    Pair,
    Session,
    effect_cases,
    pairs,
    prove_effects,
    prove_page,
)

PAIRS = pairs()
EFFECTS = effect_cases()


def _added_to_cart(product_path: str) -> Callable[[Session], None]:
    """Add a product to the cart on its page, then come back to the page being proven."""

    def act(session: Session) -> None:
        back = session.page.url
        session.page.goto(session.server.url + product_path)
        session.page.get_by_role("button", name="Add to cart", exact=True).click()
        session.page.goto(back)

    return act


def _fill_textboxes(*fields: tuple[str, str]) -> Callable[[Session], None]:
    """Type into textboxes by name; a value ``account:…#field`` is that secret of the seed."""

    def act(session: Session) -> None:
        for name, value in fields:
            text = secret(session.fixture.app_id, value) if value.startswith("account:") else value
            session.page.get_by_role("textbox", name=name, exact=True).fill(text)

    return act


def _click(role: str, name: str) -> Callable[[Session], None]:
    def act(session: Session) -> None:
        session.page.get_by_role(role, name=name, exact=True).click()  # type: ignore[arg-type]

    return act


def _fill(role: str, name: str, text: str) -> Callable[[Session], None]:
    def act(session: Session) -> None:
        session.page.get_by_role(role, name=name, exact=True).fill(text)  # type: ignore[arg-type]

    return act


def _steps(*steps: Callable[[Session], None]) -> Callable[[Session], None]:
    def act(session: Session) -> None:
        for step in steps:
            step(session)

    return act


def _choose_file(button: str, app_id: str, name: str) -> Callable[[Session], None]:
    def act(session: Session) -> None:
        chosen = Path(str(app_root(app_id) / "files" / name))
        session.page.get_by_role("button", name=button, exact=True).set_input_files(chosen)

    return act


_BANK_SIGN_IN = _fill_textboxes(
    ("Customer ID", "C-10482"), ("Password", "account:bank-sandbox/customer#password")
)

# (fixture, route, element) -> what a user does before acting on the element: so that the
# page shows the [dynamic] element whose effect is proven (an empty cart has no Checkout
# link; an empty order is refused), or so that a realistic form has the input it refuses
# to go on without (its dialogs keep it when cancelled). Every other effect is proven on
# the page as its fixture loads it.
SETUPS: dict[tuple[str, str, str], Callable[[Session], None]] = {
    ("shop-lite.guest-empty-cart", "cart", 'link "Checkout"'): _added_to_cart(
        "/products/linen-tea-towel"
    ),
    ("shop-lite.returning-buyer", "checkout", 'button "Place order"'): _added_to_cart(
        "/products/linen-tea-towel"
    ),
    ("admin-console.admin-user", "login", 'button "Sign in"'): _fill(
        "textbox", "Work email", "priya@northwind.example"
    ),
    ("admin-console.admin-user", "users", 'button "Import"'): _steps(
        _click("button", "Import users"),
        _choose_file("Choose CSV file", "admin-console", "users.csv"),
        _click("button", "Cancel"),
    ),
    ("admin-console.admin-user", "users", 'button "Send invitation"'): _steps(
        _click("button", "Invite user"),
        _fill("textbox", "Email address", "kim@northwind.example"),
        _click("button", "Cancel"),
    ),
    ("helpdesk.agent-open-queue", "ticket", 'button "Send reply"'): _fill(
        "textbox", "Reply", "Restarted; online again."
    ),
    ("helpdesk.agent-open-queue", "new-ticket", 'button "Submit ticket"'): _steps(
        _click("button", "Next"),
        _fill("textbox", "Subject", "Printer offline on floor 2"),
        _fill("textbox", "Describe the problem", "It shows offline since noon."),
    ),
    # bank-sandbox: "Continue" reveals the code frame only for a right customer ID and
    # password (its effects are proven by first revealing it), and a transfer needs an amount.
    ("bank-sandbox.two-accounts", "login", 'button "Continue"'): _BANK_SIGN_IN,
    ("bank-sandbox.two-accounts", "login", 'button "Verify"'): _BANK_SIGN_IN,
    ("bank-sandbox.two-accounts", "transfer", 'button "Review transfer"'): _fill_textboxes(
        ("Amount", "250.00")
    ),
}


def _fresh(path: str) -> Callable[[Session], None]:
    def act(session: Session) -> None:
        session.fresh(path)

    return act


def _select(name: str, option: str) -> Callable[[Session], None]:
    def act(session: Session) -> None:
        session.page.get_by_role("combobox", name=name, exact=True).select_option(option)

    return act


# (fixture, route) -> how a user arrives at a page the fixture's seed does not hold yet: a
# new customer has no ticket until they submit one.
ARRIVALS: dict[tuple[str, str], Callable[[Session], None]] = {
    ("helpdesk.customer-new", "ticket"): _steps(
        _fresh("/tickets/new"),
        _select("Category", "Billing"),
        _click("button", "Next"),
        _fill("textbox", "Subject", "Charged twice for March"),
        _fill("textbox", "Describe the problem", "The March invoice was charged twice."),
        _click("button", "Submit ticket"),
    ),
}


@pytest.fixture(scope="module")
def sessions(chromium_browser: Browser) -> Iterator[dict[str, Session]]:
    """One served app, context and page per fixture, opened on first use."""
    opened: dict[str, Session] = {}

    class Lazy(dict[str, Session]):
        def __missing__(self, fixture_id: str) -> Session:
            opened[fixture_id] = self[fixture_id] = Session.open(chromium_browser, fixture_id)
            return opened[fixture_id]

    yield Lazy()
    for session in opened.values():
        session.close()


def test_there_are_owned_apps_to_prove() -> None:
    assert {p.app_id for p in PAIRS} >= {"todo-mvc", "shop-lite"}


def test_every_setup_is_for_an_effect_that_is_proven() -> None:
    assert set(SETUPS) <= {(c.fixture_id, c.route_id, c.element) for c in EFFECTS}


@pytest.mark.parametrize("pair", PAIRS, ids=str)
def test_each_route_of_each_fixture_matches_its_page_model(
    pair: Pair, sessions: dict[str, Session]
) -> None:
    prove_page(sessions[pair.fixture_id], pair, ARRIVALS.get((pair.fixture_id, pair.route_id)))


@pytest.mark.parametrize("case", EFFECTS, ids=str)
def test_each_effect_does_what_its_annotation_says(
    case: EffectCase, sessions: dict[str, Session]
) -> None:
    setup = SETUPS.get((case.fixture_id, case.route_id, case.element), lambda _session: None)
    prove_effects(sessions[case.fixture_id], case, setup)
