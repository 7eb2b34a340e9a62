"""The browser reaches 127.0.0.1 and nothing else: whatever a page tries elsewhere fails.

One place holds it for ``automium run`` and the tests alike
(``automium.execution.contexts.loopback_context``; the architecture test holds every
context of the package to it): a launched browser's contexts through a proxy that is not
there, a connected browser's through routes (``tests/browser/test_run_connect.py``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Error

from automium.execution.contexts import OUTSIDE, fixture_context, reaches_outside
from automium.hosting import AppServer

# TEST-NET-3 (RFC 5737): documentation-only, so even an unblocked try reaches nobody.
FAR_AWAY = "http://203.0.113.7/"


@pytest.fixture
def todo_context(chromium_browser: Browser) -> Iterator[BrowserContext]:
    context = fixture_context(chromium_browser, "todo-mvc", "todo-mvc.empty")
    yield context
    context.close()


@pytest.mark.parametrize(
    ("url", "outside"),
    [
        ("http://127.0.0.1:8123/cart", False),
        ("ws://127.0.0.1:8123/live", False),
        ("data:text/plain,hi", False),
        ("about:blank", False),
        (FAR_AWAY, True),
        ("https://localhost/", True),
        ("http://[::1]:8123/", True),
        ("http://127.0.0.1.example.org/", True),
        ("http://127.0.0.10/", True),
        ("wss://203.0.113.7/live", True),
    ],
)
def test_only_the_loopback_address_counts_as_inside_for_a_connected_browsers_routes(
    url: str, outside: bool
) -> None:
    assert reaches_outside(url) is outside
    assert bool(OUTSIDE.match(url)) is outside


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
