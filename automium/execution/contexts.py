"""A browser context for one fixture: its environment profile, and loopback only.

The apps are served on 127.0.0.1 and a run must reach nothing else (no font, no analytics,
no leak of what a page holds), so every request and WebSocket to another host is aborted
before it leaves the browser. The launch flags keep Chromium's own background traffic off.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from automium.corpus import get_environment_profile, get_fixture

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Route, WebSocketRoute

LOOPBACK_HOSTS = frozenset({"127.0.0.1"})
# What a page may load without a host at all.
_HOSTLESS_SCHEMES = frozenset({"data", "blob", "about"})


def reaches_outside(url: str) -> bool:
    """Whether loading ``url`` would leave the machine's loopback address."""
    parts = urlsplit(url)
    if parts.scheme in _HOSTLESS_SCHEMES:
        return False
    return parts.hostname not in LOOPBACK_HOSTS


# The same rule as a pattern, so Chromium pauses only the requests it blocks (a callable
# matcher would send every request through Python). reaches_outside is its readable twin,
# and a test holds them together.
OUTSIDE = re.compile(r"^(?!(?:https?|wss?)://127\.0\.0\.1(?:[:/?#]|$)|(?:data|blob|about):)")


def _abort(route: Route) -> None:
    route.abort("blockedbyclient")


def _close(socket: WebSocketRoute) -> None:
    socket.close(code=1008, reason="automium: loopback only")


def block_outside(context: BrowserContext) -> None:
    """Abort every request and WebSocket of ``context`` that is not for 127.0.0.1."""
    context.route(OUTSIDE, _abort)
    context.route_web_socket(OUTSIDE, _close)


def fixture_context(browser: Browser, app_id: str, fixture_id: str) -> BrowserContext:
    """A fresh session of ``fixture_id``: its viewport, device class, locale and time zone,
    empty storage (the app starts from the seed), and loopback only."""
    fixture = get_fixture(fixture_id, app_id)
    profile = get_environment_profile(fixture.environment_profile_id)
    mobile = profile.device_class.value == "mobile"
    context = browser.new_context(
        viewport={"width": profile.viewport.width, "height": profile.viewport.height},
        is_mobile=mobile,
        has_touch=mobile,
        locale=profile.locale,
        timezone_id=profile.timezone,
        service_workers="block",
    )
    block_outside(context)
    return context
