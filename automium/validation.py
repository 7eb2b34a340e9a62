"""Check a JSON document against its bundled contract and explain every problem.

The published contract is the one rule book: a document is accepted exactly when
``jsonschema`` accepts it against the bundled schema (plus the domain's own checks, which
come later). What this module adds is the *explanation*: each schema error becomes a
:class:`~automium.errors.Problem` with the most specific code an agent can act on.

How a code is chosen, most specific first:

1. the innermost contract definition on the error's schema path that names a vocabulary
   or a domain id (``Intent`` -> ``unsupported_intent``, ``AppId`` -> ``invalid_app_id``,
   ``PlannerReference`` -> ``malformed_planner_metadata``, …; see ``_DEF_CODES``);
2. a discriminated union (``oneOf`` + ``discriminator``) whose tag is unknown gets the
   code of the union (an unknown step intent is ``unsupported_intent``), and a known tag
   is explained by that branch alone (no error per branch);
3. a size limit (``maxItems``, ``maxLength``, ``maxProperties``) is ``limit_exceeded``;
4. anything else is ``invalid_input``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import cache
from typing import Any, TypeVar

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError
from jsonschema.protocols import Validator
from pydantic import BaseModel
from pydantic import ValidationError as PydanticValidationError

from automium.contracts import ErrorCode, bundled_schema
from automium.errors import AutomiumError, Problem, pointer

M = TypeVar("M", bound=BaseModel)

# Allowed values a caller knows and the schema does not (app ids live in the corpus).
Vocabularies = Mapping[str, Sequence[str]]

_DEF_CODES: Mapping[str, ErrorCode] = {
    "AppId": ErrorCode.INVALID_APP_ID,
    "FixtureId": ErrorCode.UNKNOWN_FIXTURE,
    "RouteId": ErrorCode.UNKNOWN_ROUTE,
    "Intent": ErrorCode.UNSUPPORTED_INTENT,
    "ArtifactKind": ErrorCode.INVALID_ARTIFACT_KIND,
    "ArtifactPath": ErrorCode.INVALID_ARTIFACT_PATH,
    "CorpusVersion": ErrorCode.UNSUPPORTED_CORPUS_VERSION,
    "PlannerReference": ErrorCode.MALFORMED_PLANNER_METADATA,
    "Repetitions": ErrorCode.LIMIT_EXCEEDED,
}
_UNION_CODES: Mapping[str, ErrorCode] = {"Step": ErrorCode.UNSUPPORTED_INTENT}
_LIMIT_KEYWORDS = frozenset({"maxItems", "maxLength", "maxProperties"})
_SHOWN = 60  # characters of an offending value quoted back in a message
_MAX_POINTER = 2000  # tool-error.v1 caps a path at 2000 characters


def _ecma_pattern(
    _validator: Validator, pattern: str, instance: Any, _schema: Mapping[str, Any]
) -> Iterator[ValidationError]:
    # JSON Schema patterns are ECMA-262, where a final "$" never matches before a trailing
    # newline; Python's does. Clients (pydantic, Ajv) follow ECMA, so we do too.
    if not isinstance(instance, str):
        return
    if _compiled(pattern).search(instance) is None:
        yield ValidationError(f"{_show(instance)} does not match {pattern!r}")


@cache
def _compiled(pattern: str) -> re.Pattern[str]:
    if pattern.endswith("$") and not pattern.endswith("\\$"):
        pattern = pattern[:-1] + r"\Z"
    return re.compile(pattern)


_BUILTIN_ONE_OF = Draft202012Validator.VALIDATORS["oneOf"]


def _branch_tags(root: Mapping[str, Any]) -> dict[int, tuple[str, Any]]:
    """For each discriminated ``oneOf`` list (by identity): its tag name and branch tags."""
    found: dict[int, tuple[str, Any]] = {}
    stack: list[Any] = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            tag = node.get("discriminator", {}).get("propertyName")
            if tag is not None and isinstance(node.get("oneOf"), list):
                branches = [_resolve_local(root, b) for b in node["oneOf"]]
                found[id(node["oneOf"])] = (tag, [b["properties"][tag]["const"] for b in branches])
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


def _resolve_local(root: Mapping[str, Any], schema: Mapping[str, Any]) -> Mapping[str, Any]:
    while isinstance(schema.get("$ref"), str):
        schema = root["$defs"][schema["$ref"].removeprefix("#/$defs/")]
    return schema


class _Cyclic(Exception):
    """A definition refers to itself; such a schema is validated with its $refs."""


def _inlined(root: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """``root`` with every local ``$ref`` replaced by its target (None when recursive).

    Exact in 2020-12: a ``$ref`` applies its target alongside its siblings, and the only
    siblings the contracts give a ``$ref`` are annotations (``description``), which merge.
    Resolving each ``$ref`` through ``referencing`` is most of jsonschema's time on flat
    inputs, so valid documents are checked against this copy first.
    """

    def inline(node: Any, seen: tuple[str, ...]) -> Any:
        if isinstance(node, list):
            return [inline(item, seen) for item in node]
        if not isinstance(node, dict):
            return node
        out = {k: inline(v, seen) for k, v in node.items() if k not in ("$ref", "$defs")}
        ref = node.get("$ref")
        if isinstance(ref, str):
            name = ref.removeprefix("#/$defs/")
            if name in seen:
                raise _Cyclic(name)
            return {**inline(root["$defs"][name], (*seen, name)), **out}
        return out

    try:
        inlined: Mapping[str, Any] = inline(root, ())
    except _Cyclic:
        return None
    return inlined


@cache
def _validator(contract: str) -> Validator:
    return _validator_for(bundled_schema(contract))


@cache
def _fast_validator(contract: str) -> Validator | None:
    inlined = _inlined(bundled_schema(contract))
    return None if inlined is None else _validator_for(inlined)


def is_valid(contract: str, document: Any) -> bool:
    """Whether ``contract`` accepts ``document`` (the fast path of :func:`check`)."""
    fast = _fast_validator(contract)
    return (fast or _validator(contract)).is_valid(document)


def _validator_for(root: Mapping[str, Any]) -> Validator:
    tagged = _branch_tags(root)

    def one_of(
        validator: Validator, branches: list[Any], instance: Any, schema: Mapping[str, Any]
    ) -> Iterator[ValidationError]:
        # A discriminated union's branches require distinct tag consts, so only the branch
        # named by the tag can match: validating that one branch decides exactly what
        # "oneOf" decides, without trying all thirteen step shapes on every step.
        known = tagged.get(id(branches))
        if known is None or not isinstance(instance, dict):
            yield from _BUILTIN_ONE_OF(validator, branches, instance, schema)
            return
        tag_name, tags = known
        if instance.get(tag_name) not in tags:
            yield ValidationError(f"{tag_name} is missing or not one of {tags}")
            return
        index = tags.index(instance[tag_name])
        # descend() is on every concrete validator, though not on the typing protocol.
        concrete: Any = validator
        errors = list(concrete.descend(instance, branches[index], schema_path=index))
        if errors:
            yield ValidationError(f"not a valid {instance[tag_name]}", context=errors)

    extended: type[Validator] = validators.extend(  # type: ignore[no-untyped-call]
        Draft202012Validator, {"pattern": _ecma_pattern, "oneOf": one_of}
    )
    return extended(root)


def check(contract: str, document: Any, vocabularies: Vocabularies | None = None) -> list[Problem]:
    """Every problem of ``document`` against the bundled ``contract`` (empty when valid)."""
    if is_valid(contract, document):
        return []
    explainer = _Explainer(bundled_schema(contract), vocabularies or {})
    # One problem per (code, path): jsonschema reports a missing property once per entry of
    # "required", and "" breaks both minLength and the non-blank pattern; one explains it.
    problems: dict[tuple[str, str], Problem] = {}
    for error in _validator(contract).iter_errors(document):
        for problem in explainer.explain(error):
            problems.setdefault((problem.code, problem.path), problem)
    return list(problems.values())


def parse(
    contract: str, document: Any, model: type[M], vocabularies: Vocabularies | None = None
) -> M:
    """Validate ``document`` against ``contract`` and return it as ``model``.

    Raises :class:`AutomiumError` with every problem when the contract rejects it.
    """
    problems = check(contract, document, vocabularies)
    if problems:
        raise AutomiumError(problems)
    return to_model(model, document)


def to_model(model: type[M], document: Any) -> M:
    """Build ``model`` from a document the contract already accepted."""
    try:
        return model.model_validate(document)
    except PydanticValidationError as exc:  # the model is stricter than its contract
        raise AutomiumError(
            Problem(ErrorCode.INVALID_INPUT, str(e["msg"]), pointer(*e["loc"]))
            for e in exc.errors(include_url=False)
        ) from None


class _Explainer:
    def __init__(self, root: Mapping[str, Any], vocabularies: Vocabularies) -> None:
        self.root = root
        self.vocabularies = vocabularies

    def explain(self, error: ValidationError) -> Iterator[Problem]:
        defs = self._defs_on(error)
        if error.validator in ("oneOf", "anyOf"):
            yield from self._explain_union(error, defs)
            return
        path = list(error.absolute_path)
        if error.validator == "required":
            yield from self._missing(error, path, defs)
        elif error.validator in ("additionalProperties", "unevaluatedProperties"):
            known = sorted(_schema(error).get("properties", {}))
            for extra in sorted(set(_instance(error)) - set(known)):
                # The name is the caller's and may be huge: quote it short, and point at its
                # object when its own pointer would not fit a tool-error path.
                where = pointer(*path, extra)
                yield Problem(
                    self._code(defs, error.validator),
                    f"unexpected property {_name(extra)}{_about(_schema(error))}",
                    where if len(where) <= _MAX_POINTER else pointer(*path),
                    tuple(known),
                )
        else:
            yield Problem(
                self._code(defs, str(error.validator)),
                _message(error),
                pointer(*path),
                self._allowed(_schema(error), defs),
            )

    def _missing(
        self, error: ValidationError, path: list[str | int], defs: list[str]
    ) -> Iterator[Problem]:
        properties: Mapping[str, Any] = _schema(error).get("properties", {})
        for name in _value(error):
            if not isinstance(_instance(error), dict) or name in _instance(error):
                continue
            field_defs = [*defs, *self._ref_names(properties.get(name, {}))]
            yield Problem(
                self._code(field_defs, "required"),
                f"missing required property {name!r}{_about(_schema(error))}",
                pointer(*path, name),
                self._allowed(properties.get(name, {}), field_defs),
            )

    def _explain_union(self, error: ValidationError, defs: list[str]) -> Iterator[Problem]:
        branches: list[Any] = _value(error)
        by_branch: dict[int, list[ValidationError]] = {}
        for sub in error.context or ():
            by_branch.setdefault(int(sub.relative_schema_path[0]), []).append(sub)
        tag_name = _schema(error).get("discriminator", {}).get("propertyName")
        if tag_name is not None and isinstance(_instance(error), dict):
            tags = [self._resolve(b)["properties"][tag_name]["const"] for b in branches]
            tag = _instance(error).get(tag_name)
            if tag not in tags:
                union = defs[-1] if defs else ""
                shown = "missing" if tag is None else f"{_show(tag)} is not supported"
                yield Problem(
                    _UNION_CODES.get(union, ErrorCode.INVALID_INPUT),
                    f"{tag_name} {shown}; use one of: {', '.join(tags)}",
                    pointer(*error.absolute_path, tag_name),
                    tuple(tags),
                )
                return
            chosen = by_branch.get(tags.index(tag), [])
        elif by_branch:
            chosen = min(by_branch.values(), key=len)  # the branch the caller nearly matched
        else:
            chosen = []
        if not chosen:  # matched several branches: only a non-discriminated union can
            yield Problem(ErrorCode.INVALID_INPUT, _message(error), pointer(*error.absolute_path))
        for sub in chosen:
            yield from self.explain(sub)

    def _code(self, defs: list[str], keyword: str) -> ErrorCode:
        for name in reversed(defs):
            if name in _DEF_CODES:
                return _DEF_CODES[name]
        if keyword in _LIMIT_KEYWORDS:
            return ErrorCode.LIMIT_EXCEEDED
        return ErrorCode.INVALID_INPUT

    def _allowed(self, schema: Mapping[str, Any], defs: list[str]) -> tuple[str | int, ...]:
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

    def _resolve(self, schema: Mapping[str, Any]) -> Mapping[str, Any]:
        return _resolve_local(self.root, schema)

    @staticmethod
    def _ref_names(schema: Mapping[str, Any]) -> list[str]:
        ref = schema.get("$ref")
        return [ref.removeprefix("#/$defs/")] if isinstance(ref, str) else []

    def _defs_on(self, error: ValidationError) -> list[str]:
        """Names of the ``$defs`` entered on the way from the root to the failing keyword.

        jsonschema leaves ``$ref`` out of schema paths (a referenced schema reads as if it
        were inline), so a ``$ref`` is followed wherever the next step is not found in place.
        """
        names: list[str] = []
        node: Any = self.root
        for part in error.absolute_schema_path:
            while isinstance(node, dict) and part not in node and "$ref" in node:
                name = node["$ref"].removeprefix("#/$defs/")
                names.append(name)
                node = self.root["$defs"][name]
            node = node[part]
        return names


def _schema(error: ValidationError) -> Mapping[str, Any]:
    # jsonschema types these attributes loosely (they may be "unset" before validation).
    return error.schema if isinstance(error.schema, Mapping) else {}


def _value(error: ValidationError) -> Any:
    return error.validator_value


def _instance(error: ValidationError) -> Any:
    return error.instance


def _about(schema: Mapping[str, Any]) -> str:
    description = schema.get("description")
    return f" ({description})" if isinstance(description, str) else ""


def _name(name: str) -> str:
    return repr(name if len(name) <= _SHOWN else name[: _SHOWN - 1] + "…")


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


_TYPE_NAMES: Mapping[type, str] = {
    dict: "object",
    list: "array",
    str: "string",
    bool: "boolean",
    int: "integer",
    float: "number",
    type(None): "null",
}

_MESSAGES: Mapping[str, Callable[[Any, Any], str]] = {
    "type": lambda want, got: f"expected {want}, got {_TYPE_NAMES.get(type(got), 'value')}",
    "enum": lambda want, got: f"{_show(got)} is not one of: {', '.join(map(str, want))}",
    "const": lambda want, got: f"{_show(got)} must be {_show(want)}",
    "minLength": lambda want, _got: f"must not be empty (at least {want} character)",
    "maxLength": lambda want, got: f"is {len(got)} characters long; the limit is {want}",
    "minItems": lambda want, _got: f"needs at least {want} item(s)",
    "maxItems": lambda want, got: f"has {len(got)} items; the limit is {want}",
    "maxProperties": lambda want, got: f"has {len(got)} properties; the limit is {want}",
    "uniqueItems": lambda _want, _got: "items must be unique",
    "minimum": lambda want, got: f"{_show(got)} is below the minimum of {want}",
    "maximum": lambda want, got: f"{_show(got)} is above the maximum of {want}",
}


def _message(error: ValidationError) -> str:
    keyword = str(error.validator)
    if keyword == "pattern":
        what = _schema(error).get("description", f"a value matching {_value(error)}")
        return f"{_show(_instance(error))} is not valid here: expected {what}"
    if keyword in _MESSAGES:
        return _MESSAGES[keyword](_value(error), _instance(error))
    if keyword in ("oneOf", "anyOf"):
        return f"{_show(_instance(error))} matches none or several of the allowed forms"
    return f"{_show(_instance(error))} is not allowed here ({keyword})"
