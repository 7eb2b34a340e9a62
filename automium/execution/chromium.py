"""Which Chromium to launch, and with which flags: one answer for everything that launches one.

The order is the README's: ``AUTOMIUM_CHROMIUM`` when set, else ``chromium-headless-shell``
or ``chromium`` on ``PATH``, else the browser ``python -m playwright install chromium`` left
in Playwright's own cache (``make browser`` provisions one of these; nothing here downloads).
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Playwright

ENV_VAR = "AUTOMIUM_CHROMIUM"
PATH_NAMES = ("chromium-headless-shell", "chromium")
# Known to work headless as root in a container, and to keep the browser off the network
# it would otherwise reach on its own (updates, sync, field trials).
LAUNCH_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
HOW_TO_GET_ONE = (
    "no Chromium found: run `make browser` (Debian's chromium-headless-shell when root with "
    f"apt, else `python -m playwright install chromium`), or set {ENV_VAR} to a Chromium binary"
)


class NoChromium(LookupError):
    """No browser to launch; the message says how to get one."""


def find_chromium() -> Path | None:
    """The Chromium binary to launch, or ``None``: then only Playwright's own build is left.

    Raises :class:`NoChromium` when ``AUTOMIUM_CHROMIUM`` names no executable file: a
    setting that is wrong is an error, not a reason to pick another browser.
    """
    configured = os.environ.get(ENV_VAR)
    if configured:
        path = Path(configured)
        if not (path.is_file() and os.access(path, os.X_OK)):
            raise NoChromium(f"{ENV_VAR}={configured} is not an executable file")
        return path
    for name in PATH_NAMES:
        found = shutil.which(name)
        if found:
            return Path(found)
    return None


def launch(playwright: Playwright) -> Browser:
    """Headless Chromium with the flags above: the found binary, else Playwright's own build.

    Raises :class:`NoChromium` (saying how to get one) when there is neither.
    """
    found = find_chromium()
    if found is None and not Path(playwright.chromium.executable_path).is_file():
        raise NoChromium(HOW_TO_GET_ONE)
    return playwright.chromium.launch(
        executable_path=None if found is None else str(found),
        args=list(LAUNCH_ARGS),
        headless=True,
    )


def connect(playwright: Playwright, endpoint: str) -> Browser:
    """The Chromium that Playwright's own browser server at ``endpoint`` provides
    (``npx playwright run-server``, or ``launch-server``), instead of a local launch.

    The apps stay on this machine's 127.0.0.1. ``expose_network="<loopback>"`` makes the
    connection carry the remote browser's requests for loopback back to this machine, so
    the apps' URLs work unchanged wherever the browser runs, and the remote machine's own
    loopback is out of its reach.
    """
    return playwright.chromium.connect(endpoint, expose_network="<loopback>")


def available() -> bool:
    """Whether a browser is there to launch; ``make browser`` asks before provisioning one."""
    if find_chromium() is not None:
        return True
    from playwright.sync_api import sync_playwright  # noqa: PLC0415 - starts a driver

    with sync_playwright() as playwright:
        return Path(playwright.chromium.executable_path).is_file()


def main() -> int:
    """``python -m automium.execution.chromium``: prints the binary ("playwright" for its own
    build) and exits 0; exits 1 when there is none, 2 when ``AUTOMIUM_CHROMIUM`` is wrong."""
    try:
        found = find_chromium()
    except NoChromium as exc:
        print(exc, file=sys.stderr)
        return 2
    if found is not None:
        print(found)
        return 0
    if available():
        print("playwright")
        return 0
    print(HOW_TO_GET_ONE, file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
