"""Planner references as a person types them: ``vendor/model`` pairs, or JSON."""

from __future__ import annotations

import json
import re

from automium.contracts import ErrorCode
from automium.errors import AutomiumError


def planner_id(vendor: str, model: str) -> str:
    """A planner id the contract accepts (lowercase letters, digits, ".", "_", "-")."""
    slug = re.sub(r"[^a-z0-9._-]+", "-", f"{vendor}-{model}".strip().lower())
    return slug.strip("-._") or "planner"


def parse_planners(text: str) -> list[dict[str, str]]:
    """``vendor/model`` pairs, comma-separated (ids derived), or a JSON array of references.

    Raises :class:`AutomiumError` (``malformed_planner_metadata``) for anything else.
    """
    if text.lstrip().startswith("["):
        try:
            parsed = json.loads(text)
        except (ValueError, RecursionError):  # RecursionError: "[[[[…" nested past the stack
            parsed = None
        if isinstance(parsed, list) and all(isinstance(p, dict) for p in parsed):
            return [{str(k): str(v) for k, v in p.items()} for p in parsed]
    else:
        pairs = [item.strip().split("/", 1) for item in text.split(",") if item.strip()]
        if pairs and all(len(p) == 2 and all(part.strip() for part in p) for p in pairs):
            return [
                {"id": planner_id(v, m), "vendor": v.strip(), "model": m.strip()} for v, m in pairs
            ]
    raise AutomiumError.single(
        ErrorCode.MALFORMED_PLANNER_METADATA,
        "planners must be comma-separated vendor/model pairs (e.g. 'anthropic/claude-sonnet-4, "
        "openai/gpt-5') or a JSON array of {id, vendor, model}",
        "/planners",
    )
