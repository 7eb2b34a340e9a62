"""Waiting for the navigation a step started, not for a timeout.

A step can start a navigation that Playwright does not wait for: Enter pressed on the page
(``keyboard.press``) submits a form as a task the page runs after the press returned, and a
select whose change handler calls ``location.assign`` navigates after ``select_option``
returned. ``wait_for_load_state("load")`` then still sees the old, loaded document, and the
screenshot after the step meets the page between two documents and waits out its whole
bound (measured: 3 of 15 screenshots after Enter in shop-lite's search form took 5,000 ms,
and 2 more failed at once).

Chromium says when a frame asks to navigate, in the same input event that asked
(``Page.frameRequestedNavigation``: 30 of 30 were reported before the key press returned),
and when its loading stops. Playwright's own locator actions wait on the same signal. So
each page's main frame is watched over a CDP session of its own; after a step, one round
trip to the page (``Page.enable``, as Playwright does after an input action) delivers any
request the step made, and the step waits until the frame has stopped loading. It waits in
short slices of the event loop rather than with a waiter: a stop that arrived between the
round trip and a waiter's start would be missed, and the step would wait out its bound.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

if TYPE_CHECKING:
    from playwright.sync_api import CDPSession, Page

_SLICE_MS = 5


class NavigationWatch:
    """Whether ``page``'s main frame has a navigation on its way: requested, not yet done."""

    def __init__(self, page: Page) -> None:
        self._page = page
        self._session: CDPSession = page.context.new_cdp_session(page)
        self._frame = self._session.send("Page.getFrameTree")["frameTree"]["frame"]["id"]
        self.pending = False
        self._started = False
        self.documents = 0  # documents the main frame has loaded since the watch began
        self._session.on("Page.frameRequestedNavigation", self._requested)
        self._session.on("Page.frameNavigated", self._navigated)
        self._session.on("Page.frameStartedLoading", self._started_loading)
        self._session.on("Page.frameStoppedLoading", self._stopped_loading)
        self._session.on("Page.navigatedWithinDocument", self._within_document)
        self._session.send("Page.enable")

    def send(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """A command over the page's own CDP session: one per page, already open."""
        return self._session.send(method, params)

    def start(self, method: str, params: dict[str, Any]) -> Callable[[], dict[str, Any]]:
        """Send a command now and return what waits for its answer: the browser carries it
        out while the caller makes other calls (a step's screenshot is taken while its ARIA
        snapshot is read, 12 ms of a step's 40 on a shop-lite page). Playwright's sync API
        has no such call, so the command goes through the session's own async object, on
        the loop the sync API runs."""
        session: Any = self._session
        task = session._loop.create_task(session._impl_obj.send(method, params, None))
        # A caller cut off before it waits (the page went away) leaves no unread error.
        task.add_done_callback(lambda done: done.cancelled() or done.exception())
        return lambda: dict(session._sync(task))

    def _main(self, event: dict[str, Any]) -> bool:
        return bool(event.get("frameId") == self._frame)

    def _requested(self, event: dict[str, Any]) -> None:
        if self._main(event):
            self.pending, self._started = True, False

    def _navigated(self, event: dict[str, Any]) -> None:
        # A new document, not one the back-forward cache restored: that one is the old
        # document again, with whatever its fields held.
        frame = event["frame"]
        if "parentId" not in frame and event.get("type", "Navigation") == "Navigation":
            self.documents += 1

    def _started_loading(self, event: dict[str, Any]) -> None:
        if self._main(event) and self.pending:
            self._started = True

    def _stopped_loading(self, event: dict[str, Any]) -> None:
        # Only a stop after the request's own start: the old document's stop is not it. A
        # navigation that ends with no new document (a 204, a download) stops here too.
        if self._main(event) and self._started:
            self.pending = self._started = False

    def _within_document(self, event: dict[str, Any]) -> None:
        if self._main(event):  # a fragment or history change: no document to wait for
            self.pending = self._started = False

    def settle(self, timeout_ms: int) -> None:
        """Wait until a navigation the step started has loaded, at most ``timeout_ms``."""
        from playwright.sync_api import Error  # noqa: PLC0415

        deadline = time.monotonic() + timeout_ms / 1000
        try:
            self._session.send("Page.enable")  # delivers what the step's input asked for
            while self.pending and time.monotonic() < deadline:
                self._page.wait_for_timeout(_SLICE_MS)  # delivers the page's events
            # Playwright hears the frame over its own session: its page is loaded too.
            self._page.wait_for_load_state(
                "load", timeout=max(deadline - time.monotonic(), 0.001) * 1000
            )
        except Error:
            pass  # the page closed or crashed: the step's own checks say so
        self.pending = self._started = False


_WATCHES: WeakKeyDictionary[Page, NavigationWatch] = WeakKeyDictionary()


def watched(page: Page) -> NavigationWatch:
    """The page's watch, started on first use: before a step acts, so it sees the step."""
    watch = _WATCHES.get(page)
    if watch is None:
        watch = _WATCHES[page] = NavigationWatch(page)
    return watch
