"""Published schemas: files ``scripts/regen.py`` wrote, never a model's or a signature's.

Never ``model_json_schema()`` (it drifts from the contract) and never a function signature:
a tool's input schema is its contract in published form (bundled; a property that takes a
whole other document contract names it instead of inlining it), and its output schema is
the bundled contract.
"""

from __future__ import annotations

import copy
from typing import Any

from automium import contracts


def input_schema(contract: str) -> dict[str, Any]:
    # A copy per call: the SDK's models must never share (and mutate) our cached one.
    return copy.deepcopy(dict(contracts.published_schema(contract)))


def output_schema(contract: str) -> dict[str, Any]:
    return copy.deepcopy(dict(contracts.bundled_schema(contract)))
