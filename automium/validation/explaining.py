"""The explanation: each validator error becomes a :class:`~automium.errors.Problem`.

A problem carries the most specific code an agent can act on, a message, the JSON Pointer
of the offending value and, where the set is small and known, the allowed values. A code is
chosen by the keyword that failed, most specific first:

1. a contract definition that names a vocabulary or a domain id gives its code to the
   keywords that judge a value of it (``Intent`` -> ``unsupported_intent`` for an unknown
   intent, ``AppId`` -> ``invalid_app_id`` for a name that is no app id,
   ``Repetitions`` -> ``limit_exceeded`` for too many; see ``_DEF_CODES``), and a
   ``PlannerReference`` gives ``malformed_planner_metadata`` to anything wrong inside it;
   an unknown or missing union tag gets the code of its union (an unknown step intent is
   ``unsupported_intent``);
2. a size limit (``maxItems``, ``maxLength``, ``maxProperties``) is ``limit_exceeded``;
3. anything else — a value of the wrong type above all — is ``invalid_input``.

Errors are read off jsonschema-rs's: the keyword ends the evaluation path, and the
definitions entered are the ``$ref`` hops along it. A message names the definition it
concerns (``of PlannerReference``) but never pastes its description: the agent has the
description in the tool's input schema already, and an error is read in its context window.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from automium.contracts import ErrorCode, bundled_schema, check_schema
from automium.errors import Problem, pointer, quoted
from automium.validation.checking import Error

# Allowed values a caller knows and the schema does not (app ids live in the corpus).
Vocabularies = Mapping[str, Sequence[str]]

# Keywords that judge a value of a vocabulary or id definition (a wrong type is not one).
_VALUE_KEYWORDS = frozenset({"enum", "const", "pattern", "minLength", "maxLength", "required"})
_EVERY_KEYWORD = None
_DEF_CODES: Mapping[str, tuple[ErrorCode, frozenset[str] | None]] = {
    "AppId": (ErrorCode.INVALID_APP_ID, _VALUE_KEYWORDS),
    "FixtureId": (ErrorCode.UNKNOWN_FIXTURE, _VALUE_KEYWORDS),
    "RouteId": (ErrorCode.UNKNOWN_ROUTE, _VALUE_KEYWORDS),
    "Intent": (ErrorCode.UNSUPPORTED_INTENT, _VALUE_KEYWORDS),
    "ArtifactKind": (ErrorCode.INVALID_ARTIFACT_KIND, _VALUE_KEYWORDS),
    "ArtifactPath": (ErrorCode.INVALID_ARTIFACT_PATH, _VALUE_KEYWORDS),
    "CorpusVersion": (ErrorCode.UNSUPPORTED_CORPUS_VERSION, _VALUE_KEYWORDS),
    "PlannerReference": (ErrorCode.MALFORMED_PLANNER_METADATA, _EVERY_KEYWORD),
    "Repetitions": (ErrorCode.LIMIT_EXCEEDED, frozenset({"maximum"})),
}
_UNION_CODES: Mapping[str, ErrorCode] = {"Step": ErrorCode.UNSUPPORTED_INTENT}
_LIMIT_KEYWORDS = frozenset({"maxItems", "maxLength", "maxProperties"})
_MAX_POINTER = 2000  # tool-error.v1 caps a path at 2000 characters

Schema = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class _Site:
    """Where an error's keyword sits: the definitions entered on the way, and its schema."""

    defs: tuple[str, ...]
    node: Schema  # the (projected) schema object holding the keyword
    tag: tuple[str, tuple[Any, ...]] | None  # a union's tag name and tags, for tag errors


class Explainer:
    """Explains the errors of one contract; ``vocabularies`` fill in corpus-owned values."""

    def __init__(self, contract: str, vocabularies: Vocabularies) -> None:
        self.contract = contract
        self.root = check_schema(contract)
        self.vocabularies = vocabularies

    def explain(self, error: Error) -> Iterator[Problem]:
        keyword = str(error.evaluation_path[-1])
        site = self._site(error.evaluation_path[:-1])
        path = list(error.instance_path)
        if keyword in ("oneOf", "anyOf"):
            yield from self._union(error, path)
        elif keyword == "required":
            yield self._missing(str(getattr(error.kind, "property", "")), site, path)
        elif keyword in ("additionalProperties", "unevaluatedProperties"):
            yield from self._unexpected(error, site, path)
        elif site.tag is not None and path and path[-1] == site.tag[0]:
            yield self._bad_tag(error.instance, site, path)
        else:
            yield Problem(
                self._code(site.defs, keyword),
                self._pattern(site, error.instance)
                if keyword == "pattern"
                else _message(keyword, site, error.instance, path),
                pointer(*path),
                self._allowed(site.node, site.defs),
            )

    def _missing(self, name: str, site: _Site, path: list[str | int]) -> Problem:
        if site.tag is not None and name == site.tag[0]:
            return self._bad_tag(None, site, [*path, name])
        field: Schema = site.node.get("properties", {}).get(name, {})
        field_defs = (*site.defs, *_ref_names(field))
        return Problem(
            self._code(field_defs, "required"),
            f"missing required property {quoted(name)}{_of(site.defs)}",
            pointer(*path, name),
            self._allowed(field, field_defs),
        )

    def _unexpected(self, error: Error, site: _Site, path: list[str | int]) -> Iterator[Problem]:
        known = tuple(sorted(site.node.get("properties", {})))
        for extra in sorted(getattr(error.kind, "unexpected", ())):
            # The name is the caller's and may be huge: quote it short, and point at its
            # object when its own pointer would not fit a tool-error path.
            where = pointer(*path, extra)
            yield Problem(
                self._code(site.defs, "additionalProperties"),
                f"unexpected property {quoted(extra)}{_of(site.defs)}",
                where if len(where) <= _MAX_POINTER else pointer(*path),
                known,
            )

    def _bad_tag(self, value: Any, site: _Site, path: list[str | int]) -> Problem:
        assert site.tag is not None
        name, tags = site.tag
        shown = "missing" if value is None else f"{_show(value)} is not supported"
        union = site.defs[-1] if site.defs else ""
        return Problem(
            _UNION_CODES.get(union, ErrorCode.INVALID_INPUT),
            f"{name} {shown}; use one of: {', '.join(map(str, tags))}",
            pointer(*path),
            tags,
        )

    def _union(self, error: Error, path: list[str | int]) -> Iterator[Problem]:
        branches: list[list[Error]] = [list(b) for b in getattr(error.kind, "context", ()) or ()]
        chosen = min(branches, key=len) if branches else []  # the branch nearly matched
        if not chosen:  # valid under several branches
            yield Problem(
                ErrorCode.INVALID_INPUT,
                f"{_show(error.instance)} matches none or several of the allowed forms",
                pointer(*path),
            )
        for sub in chosen:
            yield from self.explain(sub)

    def _pattern(self, site: _Site, got: Any) -> str:
        """What a value must look like: the one-line description of the value's definition
        (a scalar's, "Id of a route ... never a URL"), which reads better than its regex."""
        if site.defs:
            name = site.defs[-1]
            described = bundled_schema(self.contract)["$defs"].get(name, {})
            about = described.get("description")
            if isinstance(about, str) and described.get("type") == "string":
                return f"{_show(got)} is not a valid {name}: {about}"
        return f"{_show(got)} does not match the pattern {site.node.get('pattern')}"

    def _code(self, defs: Sequence[str], keyword: str) -> ErrorCode:
        for name in reversed(defs):
            code, keywords = _DEF_CODES.get(name, (None, frozenset()))
            if code is not None and (keywords is _EVERY_KEYWORD or keyword in keywords):
                return code
        if keyword in _LIMIT_KEYWORDS:
            return ErrorCode.LIMIT_EXCEEDED
        return ErrorCode.INVALID_INPUT

    def _allowed(self, schema: Schema, defs: Sequence[str]) -> tuple[str | int, ...]:
        for name in reversed(defs):
            if name in self.vocabularies:
                return tuple(self.vocabularies[name])
            if name in _DEF_CODES:
                break
        target = self._resolve(schema)
        if "enum" in target:
            return tuple(target["enum"])
        if "const" in target:
            return (target["const"],)
        return ()

    def _resolve(self, schema: Schema) -> Schema:
        while isinstance(schema.get("$ref"), str):
            schema = self.root["$defs"][schema["$ref"].removeprefix("#/$defs/")]
        return schema

    def _site(self, tokens: Sequence[str | int]) -> _Site:
        """Follow an evaluation path (minus its keyword) from the root, through ``$ref``s."""
        defs: list[str] = []
        node: Any = self.root
        tag: tuple[str, tuple[Any, ...]] | None = None
        for index, token in enumerate(tokens):
            if token == "$ref":
                name = node["$ref"].removeprefix("#/$defs/")
                defs.append(name)
                node = self.root["$defs"][name]
                continue
            if token == "properties" and _tags(node) and index + 1 < len(tokens):
                union_tag = _tags(node)
                if union_tag is not None and tokens[index + 1] == union_tag[0]:
                    tag = union_tag
            node = node[token]
        if tag is None:
            tag = _tags(node)
        return _Site(tuple(defs), node, tag)


def _tags(node: Any) -> tuple[str, tuple[Any, ...]] | None:
    """A dispatching union's tag name and tags (see scripts/regen.py), or None."""
    if not isinstance(node, Mapping) or not isinstance(node.get("allOf"), list):
        return None
    required = node.get("required")
    if not (isinstance(required, list) and len(required) == 1):
        return None
    name = required[0]
    tags = []
    for branch in node["allOf"]:
        condition = branch.get("if", {}) if isinstance(branch, Mapping) else {}
        const = condition.get("properties", {}).get(name, {}).get("const")
        if const is None or "then" not in branch:
            return None
        tags.append(const)
    return name, tuple(tags)


def _ref_names(schema: Schema) -> tuple[str, ...]:
    ref = schema.get("$ref")
    return (ref.removeprefix("#/$defs/"),) if isinstance(ref, str) else ()


def _of(defs: Sequence[str]) -> str:
    return f" of {defs[-1]}" if defs else ""


def _show(value: Any) -> str:
    """A value as JSON spells it, cut short, with nothing unprintable left unescaped."""
    return quoted(value)


_TYPE_NAMES: Mapping[type, str] = {
    dict: "object",
    list: "array",
    str: "string",
    bool: "boolean",
    int: "integer",
    float: "number",
    type(None): "null",
}

_MESSAGES: Mapping[str, Callable[[str, Any, Any], str]] = {
    "type": lambda it, want, got: (
        f"{it}: expected {want}, got {_TYPE_NAMES.get(type(got), 'value')}"
    ),
    "enum": lambda it, want, got: f"{it}: {_show(got)} is not one of: {', '.join(map(str, want))}",
    "const": lambda it, want, got: f"{it}: {_show(got)} must be {_show(want)}",
    "minLength": lambda it, want, _got: f"{it} must not be empty (at least {want} character)",
    "maxLength": lambda it, want, got: f"{it} is {len(got)} characters long; the limit is {want}",
    "minItems": lambda it, want, _got: f"{it} needs at least {want} item(s)",
    "maxItems": lambda it, want, got: f"{it} has {len(got)} items; the limit is {want}",
    "maxProperties": lambda it, want, got: f"{it} has {len(got)} properties; the limit is {want}",
    "uniqueItems": lambda it, _want, _got: f"the items of {it} must be unique",
    "minimum": lambda it, want, got: f"{it}: {_show(got)} is below the minimum of {want}",
    "maximum": lambda it, want, got: f"{it}: {_show(got)} is above the maximum of {want}",
}


def _subject(path: Sequence[str | int]) -> str:
    """What a message is about, named by its place: ``goal``, ``steps/3/name``."""
    if not path:
        return "the document"
    return quoted("/".join(map(str, path)), limit=120)[1:-1]


def _message(keyword: str, site: _Site, got: Any, path: Sequence[str | int]) -> str:
    want = site.node.get(keyword)
    subject = _subject(path)
    if keyword in _MESSAGES:
        return _MESSAGES[keyword](subject, want, got)
    return f"{subject}: {_show(got)} is not allowed here ({keyword})"
