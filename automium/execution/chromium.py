"""Which Chromium a run launches, found the way ``make`` provisions it.

In order: ``AUTOMIUM_CHROMIUM``; ``chromium-headless-shell`` or ``chromium`` on PATH (Debian's
package, which ``make`` installs when root with apt); else ``None``, and Playwright's own
download (``python -m playwright install chromium``) is what launches.
"""

from __future__ import annotations

import os
import shutil

LAUNCH_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


def find_chromium() -> str | None:
    """The Chromium executable to launch, or ``None`` for Playwright's own."""
    given = os.environ.get("AUTOMIUM_CHROMIUM")
    if given:
        return given
    for name in ("chromium-headless-shell", "chromium"):
        found = shutil.which(name)
        if found:
            return found
    return None
