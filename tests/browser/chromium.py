"""Headless Chromium for the browser tests: Debian's ``chromium-headless-shell``, launched by
Playwright for Python (never a browser Playwright downloads).

Playwright is not a dependency of the package; a test that needs it skips, saying why,
when it is not installed.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium-headless-shell"
FLAGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


@contextlib.contextmanager
def chromium_page() -> Iterator[Any]:
    """A blank page of a fresh headless Chromium, closed afterwards."""
    sync_api = pytest.importorskip(
        "playwright.sync_api",
        reason="BROWSER TEST SKIPPED: Playwright for Python is not installed in this "
        "environment, so names are not pinned to Chromium's getByRole here",
    )
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=list(FLAGS))
        try:
            yield browser.new_page()
        finally:
            browser.close()
