"""The browser reaches 127.0.0.1 and nothing else: whatever a page tries is aborted."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Error

from automium.execution.contexts import OUTSIDE, fixture_context, reaches_outside

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
def test_only_the_loopback_address_counts_as_inside(url: str, outside: bool) -> None:
    assert reaches_outside(url) is outside
    assert bool(OUTSIDE.match(url)) is outside


def test_a_page_navigating_to_an_outside_address_is_blocked(todo_context: BrowserContext) -> None:
    page = todo_context.new_page()

    with pytest.raises(Error, match="ERR_BLOCKED_BY_CLIENT"):
        page.goto(FAR_AWAY, timeout=5_000)


def test_a_page_fetching_an_outside_address_is_blocked(todo_context: BrowserContext) -> None:
    page = todo_context.new_page()
    failed: list[str] = []
    page.on("requestfailed", lambda request: failed.append(request.failure or ""))

    outcome = page.evaluate(
        "url => fetch(url).then(() => 'reached', e => 'refused: ' + e.name)", FAR_AWAY
    )

    assert outcome == "refused: TypeError"
    assert [reason.split(".")[0] for reason in failed] == ["net::ERR_BLOCKED_BY_CLIENT"]
