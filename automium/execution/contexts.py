"""A browser context for one run or one proof: its environment profile, and loopback only.

The apps are served on 127.0.0.1 and a run must reach nothing else (no font, no analytics,
no leak of what a page holds). This is the one mechanism that holds it, for ``automium
run`` and the tests alike: every address but the loopback one goes through a proxy that is
not there, so it fails, at no cost per request (a route would pause each one in the
driver). The launch flags keep Chromium's own background traffic off.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from automium.corpus import get_environment_profile, get_fixture
from automium.defaults import LOOPBACK

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext

    from automium.contracts import EnvironmentProfile

DEAD_PROXY = f"http://{LOOPBACK}:9"  # the discard port: nothing listens there


def loopback_context(
    browser: Browser, profile: EnvironmentProfile, **options: Any
) -> BrowserContext:
    """A fresh session with ``profile``'s viewport, device class, locale and time zone,
    empty storage (the app starts from the seed), service workers blocked, and loopback
    only; ``options`` are Playwright's others (a HAR to record, for a run)."""
    mobile = profile.device_class.value == "mobile"
    return browser.new_context(
        viewport={"width": profile.viewport.width, "height": profile.viewport.height},
        is_mobile=mobile,
        has_touch=mobile,
        locale=profile.locale,
        timezone_id=profile.timezone,
        service_workers="block",
        proxy={"server": DEAD_PROXY, "bypass": LOOPBACK},
        **options,
    )


def fixture_context(browser: Browser, app_id: str, fixture_id: str) -> BrowserContext:
    """A fresh, loopback-only session of ``fixture_id``, in its environment profile."""
    fixture = get_fixture(fixture_id, app_id)
    return loopback_context(browser, get_environment_profile(fixture.environment_profile_id))
