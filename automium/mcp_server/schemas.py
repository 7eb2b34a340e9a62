"""Published schemas: the bundled contracts, verbatim.

Never ``model_json_schema()`` (it drifts from the contract) and never a function signature:
what a client is shown is exactly the file ``scripts/regen.py`` bundled.
"""

from __future__ import annotations

from typing import Any

from automium.contracts import bundled_schema


def published_schema(contract: str) -> dict[str, Any]:
    # A fresh dict per call: the SDK's models must never share (and mutate) our cached copy.
    return dict(bundled_schema(contract))
