"""A used journey's prefix, run for real, against the browser state it leaves restored.

Side by side, interleaved, on one served app and one launched browser: the helpdesk agent's
sign-in (``helpdesk.agent-signs-in``: open the login page, type the email and the password,
click Sign in, see the inbox's tickets) in a fresh context, and a fresh context restored
from the ``storageState`` that sign-in left, opening the inbox where it ends. The page each
ends on is compared as an ARIA snapshot: the same page, or the restored time means nothing.
The executor always runs a prefix for real; this measures what reusing its state would save.

``python -m benchmarks.prefix_reuse`` prints the medians and their ratio.
"""

from __future__ import annotations

import statistics
import time

from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from automium.execution.chromium import launch
from automium.hosting import AppServer
from automium.hosting.bundles import secret

RUNS = 7


def _signed_in(browser: Browser, base: str) -> tuple[BrowserContext, Page, float]:
    context = browser.new_context()
    page = context.new_page()
    started = time.perf_counter()
    page.goto(base + "/login")
    page.get_by_role("textbox", name="Email", exact=True).fill("omar@helpdesk.example")
    password = secret("helpdesk", "account:helpdesk/agent#password")
    page.get_by_role("textbox", name="Password", exact=True).fill(password)
    page.get_by_role("button", name="Sign in", exact=True).click()
    page.wait_for_url("**/inbox")
    page.get_by_role("table", name="Tickets", exact=True).wait_for()
    return context, page, time.perf_counter() - started


def main() -> None:
    real: list[float] = []
    restored: list[float] = []
    same = True
    with (
        sync_playwright() as playwright,
        AppServer("helpdesk", "helpdesk.agent-open-queue") as server,
    ):
        browser = launch(playwright)
        context, page, _ = _signed_in(browser, server.url)  # warms the browser's caches
        state = context.storage_state()
        expected = page.locator("body").aria_snapshot()
        context.close()
        for _ in range(RUNS):
            context, _page, took = _signed_in(browser, server.url)
            real.append(took)
            context.close()
            context = browser.new_context(storage_state=state)
            page = context.new_page()
            started = time.perf_counter()
            page.goto(server.url + "/inbox")
            page.get_by_role("table", name="Tickets", exact=True).wait_for()
            restored.append(time.perf_counter() - started)
            same = same and page.locator("body").aria_snapshot() == expected
            context.close()
        browser.close()
    real_ms, restored_ms = statistics.median(real) * 1000, statistics.median(restored) * 1000
    print(
        f"prefix for real: median {real_ms:.0f} ms; state restored: median {restored_ms:.0f} ms; "
        f"{real_ms / restored_ms:.1f}x; same page: {same} ({RUNS} runs each, interleaved)"
    )


if __name__ == "__main__":
    main()
