"""What the apps' behaviour tests share: an app's fixtures served for a module, and a page
in a new browser context on one of them (a new context is a new session of the seed)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator
from urllib.parse import urljoin

from playwright.sync_api import Browser, Page

from automium.execution.contexts import fixture_context
from automium.hosting import AppServer

TIMEOUT_MS = 5_000


@contextlib.contextmanager
def served(app_id: str, fixture_ids: Iterable[str]) -> Iterator[dict[str, AppServer]]:
    """One server per fixture for as long as the context lasts: a module's tests open a
    context each, and need not pay for a server each."""
    with contextlib.ExitStack() as stack:
        yield {f: stack.enter_context(AppServer(app_id, f)) for f in fixture_ids}


def page_on(browser: Browser, server: AppServer, path: str = "/") -> Iterator[Page]:
    """A page of a new context on ``server``, opened at ``path``; closed when resumed."""
    context = fixture_context(browser, server.app_id, server.fixture_id)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.goto(server.url + path)
    yield page
    context.close()


def visit(page: Page, path: str) -> None:
    """Load ``path`` of the app the page is on, as typing it in the address bar would."""
    page.goto(urljoin(page.url, path))
