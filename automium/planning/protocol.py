"""``planner-adapter.v1`` on the runtime's side: the request it sends, the decision it reads.

A decision is read strictly: anything but a ``PlannerDecision`` of this schema version is
:class:`PlannerBroke` (the planner is at fault, the trial ends). A well-formed decision may
still be *denied* by :func:`denial`: an intent the request did not allow, a target that is
nothing on the page the planner was shown, a route that is not the app's, a secret or file
the request did not offer. A denied decision goes in the history and the trial goes on.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from automium.accessible_names import normalized
from automium.contracts import DecisionKind, Intent, PlannerDecision, SemanticLocator, to_document

Json = dict[str, Any]
SCHEMA_VERSION = "automium.planner-adapter/v1"
_ROUTE_ID = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")
ALLOWED_INTENTS = tuple(Intent)
# Intents that act on an element: without a target there is nothing to do.
NEEDS_TARGET = frozenset(
    {
        Intent.CLICK,
        Intent.FILL,
        Intent.CLEAR,
        Intent.SELECT_OPTION,
        Intent.CHECK,
        Intent.UNCHECK,
        Intent.HOVER,
        Intent.UPLOAD_FILE,
        Intent.WAIT_FOR,
    }
)


class PlannerBroke(Exception):
    """The planner broke the protocol: no answer, garbage, another schema version, exit."""


@dataclass(frozen=True, slots=True)
class Element:
    """A node of the snapshot the planner saw, as the executor finds it on the page."""

    role: str
    name: str
    nth: int | None
    frame: str | None


def request(  # noqa: PLR0917 - the request's fields, in the contract's order
    run_id: str,
    planner: Json,
    goal: str,
    snapshot: Json,
    secret_refs: Sequence[str],
    file_refs: Sequence[str],
    history: Sequence[Json],
    steps_left: int,
) -> Json:
    """A ``PlannerRequest`` document."""
    document: Json = {
        "schemaVersion": SCHEMA_VERSION,
        "messageType": "request",
        "runId": run_id,
        "planner": planner,
        "goal": goal,
        "snapshot": snapshot,
        "allowedIntents": [i.value for i in ALLOWED_INTENTS],
    }
    if secret_refs:
        document["secretRefs"] = list(secret_refs)
    if file_refs:
        document["fileRefs"] = list(file_refs)
    document["history"] = list(history)[-1000:]
    document["stepsLeft"] = steps_left
    return document


def decision(value: object) -> PlannerDecision:
    """The decision in ``value`` (a parsed JSON line), or :class:`PlannerBroke` saying why."""
    if not isinstance(value, dict):
        raise PlannerBroke(f"the answer is a JSON {type(value).__name__}, not a decision object")
    version = value.get("schemaVersion")
    if version != SCHEMA_VERSION:
        raise PlannerBroke(f"the answer's schemaVersion is {version!r}, not {SCHEMA_VERSION!r}")
    try:
        parsed = PlannerDecision.model_validate(value)
    except ValidationError as error:
        first = error.errors()[0]
        where = "/" + "/".join(str(p) for p in first["loc"])
        raise PlannerBroke(f"the answer is no PlannerDecision: {where}: {first['msg']}") from None
    if kind_of(parsed) is DecisionKind.ACT and parsed.intent is None:
        raise PlannerBroke("the answer acts (kind act) but names no intent")
    return parsed


def off_app(value: object) -> str | None:
    """The place a decision navigates to when it is no route id (a URL, a path): such a
    decision leaves the app, and is denied rather than read as broken."""
    if not isinstance(value, dict) or value.get("intent") != Intent.NAVIGATE.value:
        return None
    route = value.get("route")
    if isinstance(route, str) and not _ROUTE_ID.match(route):
        return route[:200]
    return None


def kind_of(made: PlannerDecision) -> DecisionKind:
    return made.kind if made.kind is not None else DecisionKind.ACT


def denial(  # noqa: PLR0911 - one return per rule, in the order a reader checks them
    made: PlannerDecision, sent: Json, route_ids: Sequence[str]
) -> tuple[str, Element | None]:
    """Why ``made`` is denied (``""``: it is not), and the element it targets, if any."""
    intent = made.intent
    assert intent is not None  # kind act: checked by decision()
    if intent.value not in sent["allowedIntents"]:
        return f"intent {intent.value} is not one of the request's allowedIntents", None
    element = None
    if made.target is not None:
        target = getattr(made.target, "root", made.target)
        element = resolve(target, sent["snapshot"])
        if element is None and intent is Intent.WAIT_FOR and isinstance(target, SemanticLocator):
            element = Element(target.role, target.name, target.nth, None)  # yet to appear
        if element is None:
            return "the target is nothing on the page the planner was shown", None
    elif intent in NEEDS_TARGET:
        return f"{intent.value} needs a target", None
    if intent is Intent.NAVIGATE and made.route not in route_ids:
        return f"route {made.route!r} is not a route of the app: a planner stays on it", None
    if made.secret_ref is not None and made.secret_ref not in sent.get("secretRefs", ()):
        return "the secretRef is not one the request offered", None
    if intent is Intent.FILL and made.secret_ref is None and made.value is None:
        return "fill needs a value or a secretRef", None
    if intent is Intent.SELECT_OPTION and made.value is None:
        return "select_option needs a value", None
    if intent is Intent.PRESS_KEY and not made.key:
        return "press_key needs a key", None
    if intent is Intent.UPLOAD_FILE and made.file_ref not in sent.get("fileRefs", ()):
        return "upload_file needs one of the request's fileRefs", None
    return "", element


def resolve(target: Any, snapshot: Json) -> Element | None:
    """The snapshot node a target names: a ref, or role and name (nth among equals)."""
    nodes = list(_nodes(snapshot["root"], None))
    if hasattr(target, "ref"):
        found = next(((n, f) for n, f in nodes if n.get("ref") == target.ref), None)
        if found is None:
            return None
        node, frame = found
        equals = [
            n
            for n, f in nodes
            if n["role"] == node["role"]
            and normalized(n["name"]) == normalized(node["name"])
            and f == frame
        ]
        index = next(i for i, n in enumerate(equals) if n is node)
        return Element(node["role"], node["name"], index if len(equals) > 1 else None, frame)
    same = [(n, f) for n, f in nodes if _named(n, target.role, target.name)]
    nth = target.nth or 0
    if nth >= len(same):
        return None
    node, frame = same[nth]
    return Element(node["role"], node["name"], nth if len(same) > 1 else None, frame)


def guard_holds(guard: Mapping[str, Any], snapshot: Json) -> bool:
    """Whether a journey's guard (a step's ``when``) holds on the page ``snapshot`` shows: a
    snapshot holds what is shown, so a target it names is visible and one it lacks hidden."""
    kind = str(guard["kind"])
    if kind == "route_is":
        return bool(snapshot["routeId"] == guard["route"])
    target = guard["target"]
    if "ref" in target:  # a page model's ref names no node of a live page
        return kind == "hidden"
    nodes = _nodes(snapshot["root"], None)
    same = [n for n, _ in nodes if _named(n, target["role"], target["name"])]
    nth = target.get("nth") or 0
    shown = same[nth] if nth < len(same) else None
    if kind in ("visible", "hidden"):
        return (shown is not None) == (kind == "visible")
    if shown is None:
        return False
    text = normalized(" ".join(_texts(shown)))
    expected = normalized(guard.get("expected", ""))
    return expected in text if kind == "text_contains" else text == expected


def _named(node: Json, role: str, name: str) -> bool:
    """Whether ``node`` is the ``role`` named ``name``, as ``getByRole`` with ``exact``."""
    return bool(node["role"] == role and normalized(node["name"]) == normalized(name))


def _texts(node: Json) -> Iterator[str]:
    for text in (node.get("name"), node.get("value")):
        if text:
            yield text
    for child in node.get("children", ()):
        yield from _texts(child)


def _nodes(node: Json, frame: str | None) -> Iterator[tuple[Json, str | None]]:
    yield node, frame
    inner = node["name"] if node["role"] == "iframe" else frame
    for child in node.get("children", ()):
        yield from _nodes(child, inner)


def decision_document(made: PlannerDecision) -> Json:
    return to_document(made)
