"""A step that starts a navigation ends on the document it brings, loaded.

Enter in shop-lite's search form submits it as a task the page runs after the key press
has returned, so without the watch the step ends on the old page with a navigation in
flight, and the screenshot after it waited out its 5 s bound.
"""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser

from automium.execution.navigation import watched
from automium.hosting import AppServer
from tests.browser.served import page_on, served

FIXTURE = "shop-lite.returning-buyer"


@pytest.fixture(scope="module")
def server() -> Iterator[AppServer]:
    with served("shop-lite", [FIXTURE]) as servers:
        yield servers[FIXTURE]


# Eight fresh sessions: without the watch, most of them end on the old page.
@pytest.mark.parametrize("session", range(8))
def test_enter_in_a_form_ends_on_the_loaded_page_it_submits_to(
    chromium_browser: Browser,
    server: AppServer,
    session: int,  # noqa: ARG001 - a fresh session each time
) -> None:
    pages = page_on(chromium_browser, server)
    page = next(pages)
    page.get_by_role("searchbox", name="Search", exact=True).fill("mug")
    navigation = watched(page)
    page.keyboard.press("Enter")
    navigation.settle(5_000)
    assert urlsplit(page.url)[2:4] == ("/search", "q=mug")
    assert page.evaluate("document.readyState") == "complete"
    assert not navigation.pending
    page.screenshot(timeout=1_000)  # between two documents it would wait out any bound
    next(pages, None)


def test_a_step_that_navigates_nowhere_settles_at_once_on_its_page(
    chromium_browser: Browser, server: AppServer
) -> None:
    pages = page_on(chromium_browser, server, "/search?q=mug")
    page = next(pages)
    navigation = watched(page)
    page.get_by_role("button", name="Add to cart", exact=True).first.click()
    navigation.settle(5_000)
    assert urlsplit(page.url)[2:4] == ("/search", "q=mug")
    assert not navigation.pending
    next(pages, None)


def test_a_choice_whose_change_handler_navigates_ends_on_the_loaded_page_it_chose(
    chromium_browser: Browser, server: AppServer
) -> None:
    pages = page_on(chromium_browser, server, "/search?q=mug")
    page = next(pages)
    navigation = watched(page)
    page.get_by_role("combobox", name="Sort by", exact=True).select_option("price-asc")
    navigation.settle(5_000)
    assert "sort=price-asc" in urlsplit(page.url).query
    assert page.evaluate("document.readyState") == "complete"
    next(pages, None)


def test_only_a_new_document_counts_as_one_not_a_history_change_or_a_cached_return(
    chromium_browser: Browser, server: AppServer
) -> None:
    """A run drops a secret's masks and resumes its trace on this count: the field that holds
    the secret lives as long as its document, which a history change keeps and the
    back-forward cache brings back."""
    pages = page_on(chromium_browser, server, "/search?q=mug")
    page = next(pages)
    navigation = watched(page)
    page.evaluate("history.pushState({}, '', '/search?q=cup')")
    page.evaluate("location.hash = 'results'; window.kept = true")
    page.title()  # a round trip: the events so far have arrived
    assert navigation.documents == 0

    page.goto(server.url + "/cart", wait_until="load")
    assert navigation.documents == 1
    page.go_back(wait_until="load")
    page.title()
    same_document = page.evaluate("window.kept === true")  # the cache gave it back
    assert navigation.documents == (1 if same_document else 2)
    next(pages, None)
