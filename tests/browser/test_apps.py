"""Every owned app proven against its page models in headless Chromium (see proof.py).

Parametrised over every app with a directory under ``automium/corpus/apps/``: an app added
there is proven by this file with no change to it. ``SETUPS`` says, where a model element
with an effect is a ``[dynamic]`` one that a fixture's starting state does not show, what a
user does first to make the app show it, or what a realistic form needs before its effect
(a right password, an amount).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser

from automium.hosting.bundles import secret
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


def _fill(*fields: tuple[str, str]) -> Callable[[Session], None]:
    """Type into textboxes by name; a value ``account:…#field`` is that secret of the seed."""

    def act(session: Session) -> None:
        for name, value in fields:
            text = secret(session.fixture.app_id, value) if value.startswith("account:") else value
            session.page.get_by_role("textbox", name=name, exact=True).fill(text)

    return act


# (fixture, route) -> what a user does first, so that the page shows the [dynamic] element
# whose effect is proven (an empty cart has no Checkout link; an empty order is refused).
SETUPS: dict[tuple[str, str], Callable[[Session], None]] = {
    ("shop-lite.guest-empty-cart", "cart"): _added_to_cart("/products/linen-tea-towel"),
    ("shop-lite.returning-buyer", "checkout"): _added_to_cart("/products/linen-tea-towel"),
    # bank-sandbox: "Continue" reveals the code frame only for a right customer ID and
    # password (its effects are proven by first revealing it), and a transfer needs an amount.
    ("bank-sandbox.two-accounts", "login"): _fill(
        ("Customer ID", "C-10482"), ("Password", "account:bank-sandbox/customer#password")
    ),
    ("bank-sandbox.two-accounts", "transfer"): _fill(("Amount", "250.00")),
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


@pytest.mark.parametrize("pair", PAIRS, ids=str)
def test_each_route_of_each_fixture_matches_its_page_model(
    pair: Pair, sessions: dict[str, Session]
) -> None:
    prove_page(sessions[pair.fixture_id], pair)


@pytest.mark.parametrize("case", EFFECTS, ids=str)
def test_each_effect_does_what_its_annotation_says(
    case: EffectCase, sessions: dict[str, Session]
) -> None:
    setup = SETUPS.get((case.fixture_id, case.route_id), lambda _session: None)
    prove_effects(sessions[case.fixture_id], case, setup)
