"""Short human-readable labels for graph nodes, e.g. ``fill Search = "mug"``.

Labels are for a reviewer skimming a graph or a snapshot diff, so they name the element by
its accessible name and quote values, cut short: a label must stay within the contract's
text limit even when a fill value is 2000 characters long.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from automium.contracts import SemanticLocator, SnapshotRef

_SHOWN = 60  # characters of a value quoted in a label


def step_label(step: Any) -> str:
    """The label of a step model of ``journey.v1`` (any intent)."""
    detail = _STEP_DETAILS.get(step.intent, _no_detail)(step)
    return f"{step.intent} {detail}".rstrip()


def assertion_label(assertion: Any) -> str:
    """The label of an assertion model of ``journey.v1`` (any kind)."""
    detail = _ASSERTION_DETAILS.get(assertion.kind, _no_detail)(assertion)
    return f"{assertion.kind} {detail}".rstrip()


def _target(target: SemanticLocator | SnapshotRef | None) -> str:
    if isinstance(target, SnapshotRef):
        return f"ref {target.ref}"
    if isinstance(target, SemanticLocator):
        return target.name if target.nth is None else f"{target.name} [{target.nth}]"
    return ""


def _quoted(value: object) -> str:
    text = str(value)
    if len(text) > _SHOWN:
        text = text[: _SHOWN - 1] + "…"
    # JSON quoting keeps a label on one line: newlines and quotes come out escaped.
    return json.dumps(text, ensure_ascii=False)


def _no_detail(_item: Any) -> str:
    return ""


def _on(item: Any) -> str:
    return _target(item.target)


def _set_to(item: Any) -> str:
    # A credential is named by its ref; a literal never reaches a label of a secret field,
    # since compile refuses it (literal_secret).
    secret = getattr(item, "secret_ref", None)
    return f"{_target(item.target)} = {secret if secret else _quoted(item.value)}"


def _key(item: Any) -> str:
    return item.key if item.target is None else f"{item.key} on {_target(item.target)}"


def _scroll(item: Any) -> str:
    return item.direction if item.target is None else f"{item.direction} to {_target(item.target)}"


def _wait(item: Any) -> str:
    state = item.state or "visible"
    return f"{_target(item.target)} until {state}"


def _upload(item: Any) -> str:
    return f"{item.file_ref} → {_target(item.target)}"


def _equals(item: Any) -> str:
    return f"{_target(item.target)} = {_quoted(item.expected)}"


def _contains(item: Any) -> str:
    return f"{_target(item.target)} contains {_quoted(item.expected)}"


def _count(item: Any) -> str:
    return f"{_target(item.target)} = {item.count}"


_STEP_DETAILS: Mapping[str, Callable[[Any], str]] = {
    "navigate": lambda step: f"→ {step.route}",
    "click": _on,
    "fill": _set_to,
    "clear": _on,
    "select_option": _set_to,
    "check": _on,
    "uncheck": _on,
    "press_key": _key,
    "hover": _on,
    "scroll": _scroll,
    "wait_for": _wait,
    "upload_file": _upload,
    "go_back": _no_detail,
}

_ASSERTION_DETAILS: Mapping[str, Callable[[Any], str]] = {
    "visible": _on,
    "hidden": _on,
    "text_equals": _equals,
    "text_contains": _contains,
    "value_equals": _equals,
    "route_is": lambda assertion: f"→ {assertion.route}",
    "count_equals": _count,
}
