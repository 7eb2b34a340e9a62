"""Where an exported test finds a fixture's files: the one rule to change if they move.

A ``fileRef`` (``file:<app>/<name>``) names a file the fixture ships. The owned apps ship
theirs as package data under ``automium/corpus/apps/<app>/files/``. An exported test reads
the root from ``AUTOMIUM_FILES`` and otherwise from that folder relative to the directory it
runs in (a checkout's root), so it works anywhere without a path of one machine in it.
"""

from __future__ import annotations

FILES_ENV = "AUTOMIUM_FILES"
"""The environment variable an exported test reads the files' root from."""

DEFAULT_ROOT = "automium/corpus/apps"
"""The root when ``AUTOMIUM_FILES`` is unset, relative to where the test runs."""


def fixture_file(file_ref: str) -> str:
    """The path of ``file_ref`` below the files' root, in ``/`` form:
    ``file:admin-console/users.csv`` -> ``admin-console/files/users.csv``."""
    app, _, name = file_ref.removeprefix("file:").partition("/")
    return f"{app}/files/{name}"
