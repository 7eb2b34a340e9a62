"""The browser reaches 127.0.0.1 and nothing else: whatever a page tries elsewhere fails.

One mechanism holds it for ``automium run`` and the tests alike
(``automium.execution.contexts.loopback_context``; the architecture test holds every
context of the package to it)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Error

from automium.execution.contexts import fixture_context
from automium.hosting import AppServer

# TEST-NET-3 (RFC 5737): documentation-only, so even an unblocked try reaches nobody.
FAR_AWAY = "http://203.0.113.7/"


@pytest.fixture
def todo_context(chromium_browser: Browser) -> Iterator[BrowserContext]:
    context = fixture_context(chromium_browser, "todo-mvc", "todo-mvc.empty")
    yield context
    context.close()


def test_a_page_reaches_the_app_on_loopback_and_no_other_address(
    todo_context: BrowserContext,
) -> None:
    with AppServer("todo-mvc", "todo-mvc.empty") as server:
        page = todo_context.new_page()
        response = page.goto(server.url + "/")
        fetched = [
            page.evaluate("u => fetch(u).then(r => r.status, e => 'blocked')", url)
            for url in ("http://10.1.2.3/", "https://example.com/", FAR_AWAY, server.url + "/")
        ]

    assert response is not None
    assert (response.status, fetched) == (200, ["blocked", "blocked", "blocked", 200])


def test_a_page_navigating_to_an_outside_address_fails(todo_context: BrowserContext) -> None:
    page = todo_context.new_page()

    with pytest.raises(Error, match="ERR_PROXY_CONNECTION_FAILED"):
        page.goto(FAR_AWAY, timeout=5_000)


def test_a_websocket_to_an_outside_address_never_opens(todo_context: BrowserContext) -> None:
    page = todo_context.new_page()

    outcome = page.evaluate(
        """url => new Promise(done => {
            const socket = new WebSocket(url);
            socket.onopen = () => done('opened');
            socket.onerror = () => done('failed');
            setTimeout(() => done('timed out'), 4000);
        })""",
        "ws://203.0.113.7/live",
    )

    assert outcome == "failed"
