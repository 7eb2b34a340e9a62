"""Waiting, after a planner's action, for the requests it started: the page a planner is
shown next is the page the action led to, not a page between two states.

A locator step needs no such wait: its next action waits for its own target. A planner
does not: it is shown a snapshot and may only name what the snapshot holds. A click whose
handler fetches before it shows a form (the bank's sign-in asks the host for the password's
verdict, then loads the code frame) leaves, for a moment, a page with no form on it: taken
then, the snapshot sends the planner a page on which its next target does not exist
(measured: with 100 ms of network latency, 1 of 1 scripted sign-in had its code and its
Verify denied as targets of nothing).

So every request the page makes is counted from the start of a trial, and after an action
the trial waits until each one has its response and none has started for a short quiet
window, as a person waits for a spinner: a request that only starts once another has
answered (the frame after the fetch) starts within the window. An action that made no
request waits no window. Long-lived requests (an event stream, a socket) are not counted.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Page, Request

QUIET_MS = 60
_SLICE_MS = 5
_LONG_LIVED = frozenset({"eventsource", "websocket"})


class RequestWatch:
    """The requests of ``page`` (and of its frames) in flight, and how many ever started."""

    def __init__(self, page: Page) -> None:
        self._page = page
        self._flying: set[Request] = set()
        self.started = 0
        self._last = time.monotonic()
        page.on("request", self._request)
        # Answered once its response arrives: a fetch whose body the page never reads may
        # not finish loading for seconds (measured: a rejected sign-in held every later
        # action of its trial for the whole 5 s bound), and the page acts on the headers.
        page.on("response", lambda response: self._done(response.request))
        page.on("requestfailed", self._done)

    def _request(self, request: Request) -> None:
        if request.resource_type not in _LONG_LIVED:
            self._flying.add(request)
            self.started += 1
            self._last = time.monotonic()

    def _done(self, request: Request) -> None:
        if request in self._flying:
            self._flying.discard(request)
            self._last = time.monotonic()

    def settle(self, started_before: int, timeout_ms: int) -> None:
        """Wait until every request since ``started_before`` (``started`` before the action)
        has its response and the page has been quiet for ``QUIET_MS``, at most
        ``timeout_ms``."""
        deadline = time.monotonic() + timeout_ms / 1000
        self._page.wait_for_timeout(_SLICE_MS)  # delivers the requests the action made
        if self.started == started_before and not self._flying:
            return
        while time.monotonic() < deadline:
            quiet_for = (time.monotonic() - self._last) * 1000
            if not self._flying and quiet_for >= QUIET_MS:
                return
            self._page.wait_for_timeout(_SLICE_MS)
