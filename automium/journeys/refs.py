"""A journey's ref: the one string that binds a run to the exact journey it runs.

``journey:<fixtureId>/<journeyId>@<digest>``: the digest is the first 20 hex digits of the
SHA-256 of the canonical journey (compact JSON, keys sorted, without ``schemaVersion`` and
the ``mermaid`` option, which do not change what the journey does). The fixture names the
app; any edit of a step, an assertion or the recovery gives another ref.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from automium.contracts import Journey, to_document

_NOT_THE_JOURNEY = ("schemaVersion", "mermaid")


def canonical(journey: Journey) -> str:
    document: dict[str, Any] = to_document(journey)
    for key in _NOT_THE_JOURNEY:
        document.pop(key, None)
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(journey: Journey) -> str:
    return hashlib.sha256(canonical(journey).encode("utf-8")).hexdigest()[:20]


def journey_ref(journey: Journey) -> str:
    return f"journey:{journey.fixture_id}/{journey.id}@{digest(journey)}"
