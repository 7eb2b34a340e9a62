"""Published schemas: files ``scripts/regen.py`` wrote, never a model's or a signature's.

Never ``model_json_schema()`` (it drifts from the contract) and never a function signature:
a tool's input schema is its contract in published form (bundled and lean: a property that
takes a whole other document contract names it, a union is written once, titles and
repeated descriptions go), and its output schema is the contract's validation-only
projection (no annotations: a client validates with it, the model needs no prose there).
Both accept exactly what the contract accepts; the tests prove it.
"""

from __future__ import annotations

import json
from typing import Any

from automium import contracts


def input_schema(contract: str) -> dict[str, Any]:
    # A copy per call, parsed from the text: the SDK's models must never share (and mutate)
    # one schema object.
    schema: dict[str, Any] = json.loads(contracts.tool_schema_text(contract, "input"))
    return schema


def output_schema(contract: str) -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(contracts.tool_schema_text(contract, "output"))
    return schema
