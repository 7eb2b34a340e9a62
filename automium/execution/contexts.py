"""A browser context for one run or one proof: its environment profile, and loopback only.

The apps are served on 127.0.0.1 and a run must reach nothing else (no font, no analytics,
no leak of what a page holds). :func:`loopback_context` is the one place that holds it, for
``automium run`` and the tests alike, in the one of two ways the browser allows:

* a browser launched here: every address but the loopback one goes through a proxy that
  is not there, so it fails, at no cost per request (a route would pause each one);
* a connected browser (``--connect``) reaches this machine's loopback through the
  connection's own proxy, which a context proxy would replace: there, routes abort every
  request and WebSocket for another host (:func:`block_outside`; only those pause).

The launch flags keep Chromium's own background traffic off.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from automium.corpus import get_environment_profile, get_fixture
from automium.defaults import LOOPBACK

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Route, WebSocketRoute

    from automium.contracts import EnvironmentProfile

DEAD_PROXY = f"http://{LOOPBACK}:9"  # the discard port: nothing listens there
# What a page may load without a host at all.
_HOSTLESS_SCHEMES = frozenset({"data", "blob", "about"})


def reaches_outside(url: str) -> bool:
    """Whether loading ``url`` would leave the machine's loopback address."""
    parts = urlsplit(url)
    if parts.scheme in _HOSTLESS_SCHEMES:
        return False
    return parts.hostname != LOOPBACK


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


def loopback_context(
    browser: Browser, profile: EnvironmentProfile, *, connected: bool = False, **options: Any
) -> BrowserContext:
    """A fresh session with ``profile``'s viewport, device class, locale and time zone,
    empty storage (the app starts from the seed), service workers blocked, and loopback
    only (``connected``: the browser is a remote one); ``options`` are Playwright's others
    (a HAR to record, for a run)."""
    mobile = profile.device_class.value == "mobile"
    context = browser.new_context(
        viewport={"width": profile.viewport.width, "height": profile.viewport.height},
        is_mobile=mobile,
        has_touch=mobile,
        locale=profile.locale,
        timezone_id=profile.timezone,
        service_workers="block",
        proxy=None if connected else {"server": DEAD_PROXY, "bypass": LOOPBACK},
        **options,
    )
    if connected:
        block_outside(context)
    return context


def fixture_context(browser: Browser, app_id: str, fixture_id: str) -> BrowserContext:
    """A fresh, loopback-only session of ``fixture_id``, in its environment profile."""
    fixture = get_fixture(fixture_id, app_id)
    return loopback_context(browser, get_environment_profile(fixture.environment_profile_id))
