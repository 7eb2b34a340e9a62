"""The ``browser`` marker, for tests that launch Chromium (registered here too, so this
folder stands on its own under ``--strict-markers``)."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: launches headless Chromium against the apps")
