"""Short human-readable labels for graph nodes, e.g. ``fill Search = "mug"``.

Labels are for a reviewer skimming a graph or a snapshot diff, so they name the element by
its accessible name and quote values, cut short: a label must stay within the contract's
text limit even when a fill value is 2000 characters long. A credential shows as its ref
(a literal never reaches a secret field: compile refuses it). They read the journey
document (``journey.v1``) as the contract accepted it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from automium.contracts import Intent

_SHOWN = 60  # characters of a value quoted in a label

Item = Mapping[str, Any]


def step_label(step: Item) -> str:
    """The label of a step of a ``journey.v1`` document (any intent)."""
    detail = _STEP_DETAILS.get(step["intent"], _no_detail)(step)
    return f"{step['intent']} {detail}".rstrip()


def assertion_label(assertion: Item) -> str:
    """The label of an assertion of a ``journey.v1`` document (any kind)."""
    detail = _ASSERTION_DETAILS.get(assertion["kind"], _no_detail)(assertion)
    return f"{assertion['kind']} {detail}".rstrip()


def _target(target: Item | None) -> str:
    if target is None:
        return ""
    if "ref" in target:
        return f"ref {target['ref']}"
    nth = target.get("nth")
    return target["name"] if nth is None else f"{target['name']} [{nth}]"


def _quoted(value: object) -> str:
    text = str(value)
    if len(text) > _SHOWN:
        text = text[: _SHOWN - 1] + "…"
    # JSON quoting keeps a label on one line: newlines and quotes come out escaped.
    return json.dumps(text, ensure_ascii=False)


def _no_detail(_item: Item) -> str:
    return ""


def _on(item: Item) -> str:
    return _target(item.get("target"))


def _set_to(item: Item) -> str:
    secret = item.get("secretRef")
    return f"{_target(item.get('target'))} = {secret if secret else _quoted(item.get('value'))}"


def _key(item: Item) -> str:
    target = item.get("target")
    return item["key"] if target is None else f"{item['key']} on {_target(target)}"


def _scroll(item: Item) -> str:
    target = item.get("target")
    return item["direction"] if target is None else f"{item['direction']} to {_target(target)}"


def _wait(item: Item) -> str:
    return f"{_target(item.get('target'))} until {item.get('state') or 'visible'}"


def _upload(item: Item) -> str:
    return f"{item['fileRef']} → {_target(item.get('target'))}"


def _navigate(item: Item) -> str:
    entity = item.get("entity")
    return f"→ {item['route']}" + (f" ({entity})" if entity else "")


def _equals(item: Item) -> str:
    return f"{_target(item.get('target'))} = {_quoted(item['expected'])}"


def _contains(item: Item) -> str:
    return f"{_target(item.get('target'))} contains {_quoted(item['expected'])}"


def _count(item: Item) -> str:
    return f"{_target(item.get('target'))} = {item['count']}"


_STEP_DETAILS: Mapping[str, Callable[[Item], str]] = {
    Intent.NAVIGATE: _navigate,
    Intent.CLICK: _on,
    Intent.FILL: _set_to,
    Intent.CLEAR: _on,
    Intent.SELECT_OPTION: _set_to,
    Intent.CHECK: _on,
    Intent.UNCHECK: _on,
    Intent.PRESS_KEY: _key,
    Intent.HOVER: _on,
    Intent.SCROLL: _scroll,
    Intent.WAIT_FOR: _wait,
    Intent.UPLOAD_FILE: _upload,
    Intent.GO_BACK: _no_detail,
}

_ASSERTION_DETAILS: Mapping[str, Callable[[Item], str]] = {
    "visible": _on,
    "hidden": _on,
    "text_equals": _equals,
    "text_contains": _contains,
    "value_equals": _equals,
    "route_is": lambda assertion: f"→ {assertion['route']}",
    "count_equals": _count,
}
