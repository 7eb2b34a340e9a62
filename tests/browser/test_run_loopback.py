"""A run's browser context reaches 127.0.0.1 and nothing else."""

from __future__ import annotations

from playwright.sync_api import Browser

from automium.defaults import LOOPBACK
from automium.execution.executor import DEAD_PROXY
from automium.hosting import AppServer


def test_a_runs_context_reaches_the_app_on_loopback_and_no_other_address(
    chromium_browser: Browser,
) -> None:
    with AppServer("todo-mvc", "todo-mvc.empty") as server:
        context = chromium_browser.new_context(proxy={"server": DEAD_PROXY, "bypass": LOOPBACK})
        try:
            page = context.new_page()
            response = page.goto(server.url + "/")
            fetched = [
                page.evaluate("u => fetch(u).then(r => r.status, e => 'blocked')", url)
                for url in ("http://10.1.2.3/", "https://example.com/", server.url + "/")
            ]
        finally:
            context.close()
    assert response is not None
    assert (response.status, fetched) == (200, ["blocked", "blocked", 200])
