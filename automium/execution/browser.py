"""One headless Chromium for a batch of runs: launch is paid once, each run gets a context."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from automium.execution.chromium import launch

if TYPE_CHECKING:
    from playwright.sync_api import Browser


@contextmanager
def launched() -> Iterator[Browser]:
    from playwright.sync_api import sync_playwright  # noqa: PLC0415

    with sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            yield browser
        finally:
            browser.close()
