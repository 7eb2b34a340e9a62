"""The validation-only projection of a bundled contract: what the server's validator compiles
(``generated/automium_contracts/checks/``)."""

from __future__ import annotations

from typing import Any

from automium_build.bundling import ContractError, Json, still_a_schema
from automium_build.schema_walk import ANNOTATIONS, DATA, SCHEMA_MAPS


class _Projector:
    """The validation-only projection of one bundled contract.

    Annotations go (descriptions, titles, ``$schema``, ``$id``), and every discriminated
    union (``oneOf`` + ``discriminator``) becomes a dispatch on its tag: the tag must be one
    of the branch tags, and an ``if``/``then`` per branch applies that branch alone. That
    accepts exactly what the ``oneOf`` accepts — the branches require distinct ``const``
    tags, which regen checks, so only the branch named by the tag can match — while a
    validator checks one branch instead of all of them, and its errors are that branch's.
    """

    def __init__(self, name: str, bundled: Json) -> None:
        self.name = name
        self.defs: Json = bundled.get("$defs", {})

    def schema(self, node: Any) -> Any:
        if not isinstance(node, dict):
            return node
        out: Json = {}
        for key, value in node.items():
            if key in ANNOTATIONS:
                continue
            if key in DATA:
                out[key] = value
            elif key in SCHEMA_MAPS:
                out[key] = {name: self.schema(sub) for name, sub in value.items()}
            elif isinstance(value, list):
                out[key] = [self.schema(sub) for sub in value]
            else:
                out[key] = self.schema(value)
        tag = node.get("discriminator", {}).get("propertyName")
        return out if tag is None else self._dispatch(out, tag)

    def _dispatch(self, union: Json, tag: str) -> Json:
        branches: list[Json] = union.pop("oneOf")
        tags = [self._tag_of(branch, tag) for branch in branches]
        if len(set(tags)) != len(tags):
            raise ContractError(f"{self.name}: discriminated union on {tag!r} repeats a tag")
        return {
            **union,
            "type": "object",
            "required": [tag],
            "properties": {tag: {"enum": tags}},
            "allOf": [
                {"if": {"properties": {tag: {"const": value}}, "required": [tag]}, "then": branch}
                for value, branch in zip(tags, branches, strict=True)
            ],
        }

    def _tag_of(self, branch: Json, tag: str) -> Any:
        target = branch
        while isinstance(target.get("$ref"), str):
            target = self.defs[target["$ref"].removeprefix("#/$defs/")]
        const = target.get("properties", {}).get(tag, {}).get("const")
        if target.get("type") != "object" or tag not in target.get("required", []) or const is None:
            raise ContractError(
                f"{self.name}: every branch of a union on {tag!r} must be an object that "
                f"requires {tag!r} and fixes it with a const"
            )
        return const


def project(name: str, bundled: Json) -> Json:
    """The validation-only projection of a bundled contract (see :class:`_Projector`)."""
    projected: Json = _Projector(name, bundled).schema(bundled)
    still_a_schema(projected)
    return projected
