"""A journey's ref: the one string that binds a run to the exact journey it runs.

``journey:<fixtureId>/<journeyId>@<digest>``: the digest is the first 20 hex digits of the
SHA-256 of the canonical journey (compact JSON, keys sorted, without ``schemaVersion`` and
the ``mermaid``, ``export`` and ``detail`` options, which do not change what the journey
does). The fixture names the app; any edit of a step, an assertion or the recovery gives
another ref.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

_NOT_THE_JOURNEY = frozenset({"schemaVersion", "mermaid", "export", "detail"})

Document = Mapping[str, Any]


def canonical(journey: Document) -> str:
    """``journey`` (a ``journey.v1`` document) as the digest reads it."""
    kept = {k: v for k, v in journey.items() if k not in _NOT_THE_JOURNEY}
    return json.dumps(kept, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(journey: Document) -> str:
    return hashlib.sha256(canonical(journey).encode("utf-8")).hexdigest()[:20]


def journey_ref(journey: Document) -> str:
    return f"journey:{journey['fixtureId']}/{journey['id']}@{digest(journey)}"
