"""The browser tier: one headless Chromium for the session, a context per fixture.

Every test here is marked ``browser``. Where no browser can be found, the tier skips with one
line saying how to get one; with ``CI=true`` (how CI runs) a missing browser fails the run
instead, so CI can never pass without having proven the apps.

pytest-playwright is installed too (the exported tests use its ``page`` fixture); its
fixtures are named ``browser``/``context``/``page``, so these are named differently, and its
launch arguments are pointed at the same binary in case a test here asks for its ``page``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Playwright, sync_playwright

from automium.execution.chromium import LAUNCH_ARGS, NoChromium, find_chromium, launch

_HERE = Path(__file__).parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if _HERE in item.path.parents:
            item.add_marker(pytest.mark.browser)


# Package scope, not session: the sync driver holds this thread's event loop while it
# lives, and the async tests after this package (tests/server) need that loop free.
@pytest.fixture(scope="package")
def playwright_driver() -> Iterator[Playwright]:
    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="package")
def chromium_browser(playwright_driver: Playwright) -> Iterator[Browser]:
    try:
        browser = launch(playwright_driver)
    except NoChromium as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI needs a browser: {exc}", pytrace=False)
        pytest.skip(f"browser tier skipped: {exc}")
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def browser_type_launch_args() -> dict[str, Any]:
    """pytest-playwright's launch options: the same binary and flags as everything else."""
    found = find_chromium()
    options: dict[str, Any] = {"args": list(LAUNCH_ARGS)}
    return options if found is None else {**options, "executable_path": str(found)}
