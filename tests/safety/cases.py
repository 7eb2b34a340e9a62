"""The cases live in :mod:`tests.cases`; this name stays for ``test_hostile_stdio.py``."""

from __future__ import annotations

from tests.cases import reference_journey

__all__ = ["reference_journey"]
