"""bank-sandbox in a real browser: each reference journey carried out step by step, and the
money a confirmed transfer moves.

Targets are resolved as the page-model format says: a node the model holds under an
``iframe "X"`` is looked up in that frame, since ``getByRole`` on the page cannot see it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, FrameLocator, Locator, Page, expect

from automium import corpus
from automium.contracts import to_document
from automium.corpus.pages import page as page_model
from automium.execution.contexts import fixture_context
from automium.hosting import AppServer
from automium.hosting.bundles import secret
from tests.browser.served import served

APP = "bank-sandbox"
JOURNEYS = {j.id: to_document(j) for j in corpus.reference_journeys() if j.app_id == APP}


def _path_pattern(route_id: str) -> str:
    """The manifest path of ``route_id`` as a regular expression (``:param``: any segment)."""
    path = corpus.get_route(APP, route_id).path
    return "".join(
        "[^/]+" if part.startswith(":") else re.escape(part) for part in re.split(r"(:\w+)", path)
    )


class Session:
    """A new browser context on a served fixture: it starts from the seed."""

    def __init__(self, browser: Browser, server: AppServer) -> None:
        self.server = server
        self.context: BrowserContext = fixture_context(browser, APP, server.fixture_id)
        self.page: Page = self.context.new_page()

    def url(self, route_id: str) -> str:
        return self.server.url + corpus.get_route(APP, route_id).path

    def route_here(self) -> str:
        path = self.page.url.removeprefix(self.server.url).split("?")[0]
        for route in corpus.get_app(APP).routes:
            if re.fullmatch(_path_pattern(route.id), path):
                return route.id
        raise AssertionError(f"{path} is no route of {APP}")

    def target(self, role: str, name: str) -> Locator:
        """``getByRole`` on the page, or in the iframe the model holds the target under."""
        template = page_model(APP, self.route_here())
        element = next((e for e in template.elements if (e.role, e.name) == (role, name)), None)
        scope: Page | FrameLocator = self.page
        if element is not None and element.frame is not None:
            title = template.elements[element.frame].name
            scope = self.page.locator(f'iframe[title="{title}"]').content_frame
        return scope.get_by_role(role, name=name, exact=True)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def servers() -> Iterator[dict[str, AppServer]]:
    with served(APP, corpus.fixture_ids(APP)) as started:
        yield started


@pytest.fixture
def session(
    chromium_browser: Browser, servers: dict[str, AppServer], request: pytest.FixtureRequest
) -> Iterator[Session]:
    opened = Session(chromium_browser, servers[request.param])
    yield opened
    opened.context.close()


def _act(session: Session, step: Mapping[str, Any]) -> None:
    intent = step["intent"]
    if intent == "navigate":
        session.page.goto(session.url(step["route"]))
        return
    target = session.target(step["target"]["role"], step["target"]["name"])
    if intent == "click":
        target.click()
    elif intent == "hover":
        target.hover()
    elif intent == "fill":
        value = secret(APP, step["secretRef"]) if "secretRef" in step else step["value"]
        target.fill(value)
    elif intent == "select_option":
        target.select_option(label=step["value"])
    elif intent == "wait_for":
        target.wait_for(state=step["state"])
    else:
        raise AssertionError(f"no driver for {intent}")


def _holds(session: Session, assertion: Mapping[str, Any]) -> None:
    kind = assertion["kind"]
    if kind == "route_is":
        pattern = re.escape(session.server.url) + _path_pattern(assertion["route"])
        expect(session.page).to_have_url(re.compile(f"^{pattern}$"))
        return
    target = session.target(assertion["target"]["role"], assertion["target"]["name"])
    if kind == "text_contains":
        expect(target).to_contain_text(assertion["expected"])
    elif kind == "visible":
        expect(target).to_be_visible()
    elif kind == "hidden":
        expect(target).to_be_hidden()
    elif kind == "value_equals":
        expect(target).to_have_value(assertion["expected"])
    else:
        raise AssertionError(f"no check for {kind}")


@pytest.mark.parametrize(
    ("journey_id", "session"),
    [(j["id"], j["fixtureId"]) for j in JOURNEYS.values()],
    indirect=["session"],
)
def test_each_reference_journey_can_be_carried_out_in_the_served_app(
    journey_id: str, session: Session
) -> None:
    journey = JOURNEYS[journey_id]
    for step in journey["steps"]:
        _act(session, step)
        for assertion in journey["assertions"]:
            if assertion["afterStep"] == step["id"]:
                _holds(session, assertion)


@pytest.mark.parametrize("session", ["bank-sandbox.two-accounts"], indirect=True)
def test_a_confirmed_transfer_moves_the_balances_and_cannot_be_confirmed_twice(
    session: Session,
) -> None:
    page = session.page
    page.goto(session.url("transfer"))
    session.target("textbox", "Amount").fill("1,000.5")
    session.target("textbox", "Reference").fill("Holiday")
    session.target("button", "Review transfer").click()
    summary = session.target("region", "Transfer summary")
    expect(summary).to_contain_text("$1,000.50 from Everyday Checking to Rainy Day Savings")
    expect(summary).to_contain_text("Reference: Holiday")
    session.target("button", "Confirm transfer").click()
    session.target("textbox", "One-time code").fill(
        secret(APP, f"account:{APP}/customer#one-time-code")
    )
    session.target("button", "Verify").click()

    expect(page).to_have_url(session.server.url + "/transfer/receipt/TR-20261201")
    expect(session.target("region", "Receipt")).to_have_text(
        "$1,000.50 from Everyday Checking to Rainy Day Savings, reference TR-20261201"
    )
    session.target("link", "Back to accounts").click()
    expect(session.target("table", "Accounts")).to_contain_text("$2,239.68")
    expect(session.target("table", "Accounts")).to_contain_text("$13,875.50")
    page.goto(session.url("transfer-review"))
    expect(page).to_have_url(session.url("transfer"))


@pytest.mark.parametrize("session", ["bank-sandbox.two-accounts"], indirect=True)
def test_a_wrong_password_or_code_is_refused_where_it_was_typed(session: Session) -> None:
    page = session.page
    page.goto(session.url("login"))
    session.target("textbox", "Customer ID").fill("C-10482")
    session.target("textbox", "Password").fill("not-the-password")
    session.target("button", "Continue").click()
    expect(page.get_by_role("alert")).to_have_text(
        "That customer ID and password do not match our records."
    )
    expect(page.get_by_role("group", name="Verify it's you")).to_be_hidden()

    session.target("textbox", "Password").fill(secret(APP, f"account:{APP}/customer#password"))
    session.target("button", "Continue").click()
    session.target("textbox", "One-time code").fill("000000")
    session.target("button", "Verify").click()

    frame = page.locator('iframe[title="Verification"]').content_frame
    expect(frame.get_by_role("alert")).to_contain_text("That code is not right")
    expect(page).to_have_url(session.url("login"))
