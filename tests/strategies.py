"""Hypothesis strategies generated from a bundled contract, and mutations of them.

A small generator for the JSON Schema subset the contracts use (objects, arrays, strings
with patterns, numbers, enums, consts, ``oneOf`` and local ``$ref``), written here because
hypothesis-jsonschema no longer runs on current Hypothesis. Generated documents are meant
to be schema-valid; the differential and fuzz tests check that with the real validator
rather than trusting this module.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

from hypothesis import strategies as st

Schema = Mapping[str, Any]
_MAX_ITEMS = 4  # keeps examples small; size limits have their own tests
_JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(["", " ", "\u0000", "é\u200b", "../..", "https://x", "\U0001d518\U0001d52b"]),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)


def from_schema(schema: Schema, root: Schema | None = None) -> st.SearchStrategy[Any]:
    """Documents of ``schema`` (a bundled contract: every ``$ref`` is ``#/$defs/...``)."""
    root = root if root is not None else schema
    if "$ref" in schema:
        name = schema["$ref"].removeprefix("#/$defs/")
        return st.deferred(lambda: from_schema(root["$defs"][name], root))
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if "oneOf" in schema:
        return st.one_of([from_schema(branch, root) for branch in schema["oneOf"]])
    kind = schema.get("type")
    if isinstance(kind, list):
        return st.one_of([from_schema({**schema, "type": k}, root) for k in kind])
    builder = _BUILDERS.get(str(kind))
    return builder(schema, root) if builder else _JUNK


def _object(schema: Schema, root: Schema) -> st.SearchStrategy[Any]:
    properties: Mapping[str, Schema] = schema.get("properties", {})
    required = set(schema.get("required", []))
    extra = schema.get("additionalProperties")
    if isinstance(extra, Mapping):  # a typed map
        names = schema.get("propertyNames", {}).get("pattern", "^[a-z]{1,8}$")
        return st.dictionaries(
            st.from_regex(_anchored(names), fullmatch=True),
            from_schema(extra, root),
            max_size=min(schema.get("maxProperties", _MAX_ITEMS), _MAX_ITEMS),
        )
    return st.fixed_dictionaries(
        {k: from_schema(v, root) for k, v in properties.items() if k in required},
        optional={k: from_schema(v, root) for k, v in properties.items() if k not in required},
    )


def _array(schema: Schema, root: Schema) -> st.SearchStrategy[Any]:
    low = schema.get("minItems", 0)
    high = min(schema.get("maxItems", low + _MAX_ITEMS), low + _MAX_ITEMS)
    unique = bool(schema.get("uniqueItems"))
    return st.lists(
        from_schema(schema.get("items", {}), root),
        min_size=low,
        max_size=high,
        unique_by=(lambda x: json.dumps(x, sort_keys=True)) if unique else None,
    )


def _anchored(pattern: str) -> str:
    # Generate whole strings: an anchored ECMA pattern never allows a trailing newline.
    return pattern.removeprefix("^").removesuffix("$")


def _string(schema: Schema, _root: Schema) -> st.SearchStrategy[Any]:
    low, high = schema.get("minLength", 0), schema.get("maxLength", 40)
    pattern = schema.get("pattern")
    if pattern is None:
        return st.text(min_size=low, max_size=min(high, 40))
    if pattern.startswith("^") and pattern.endswith("$"):
        strings = st.from_regex(_anchored(pattern), fullmatch=True)
    else:
        strings = st.from_regex(pattern)
    return strings.filter(lambda s: low <= len(s) <= high)


def _integer(schema: Schema, _root: Schema) -> st.SearchStrategy[Any]:
    return st.integers(min_value=schema.get("minimum"), max_value=schema.get("maximum"))


def _number(schema: Schema, _root: Schema) -> st.SearchStrategy[Any]:
    return st.floats(
        min_value=schema.get("minimum"),
        max_value=schema.get("maximum"),
        allow_nan=False,
        allow_infinity=False,
    )


_BUILDERS = {
    "object": _object,
    "array": _array,
    "string": _string,
    "integer": _integer,
    "number": _number,
    "boolean": lambda _s, _r: st.booleans(),
}


def _mutate(document: Any, rng: random.Random, junk: Any) -> Any:
    """One structural or value mutation somewhere in ``document``."""
    containers: list[Any] = []
    stack = [document]
    while stack:
        node = stack.pop()
        if isinstance(node, dict | list):
            containers.append(node)
            stack.extend(node.values() if isinstance(node, dict) else node)
    target = rng.choice(containers) if containers else None
    if isinstance(target, dict) and target:
        key = rng.choice(sorted(target))
        action = rng.choice(["drop", "replace", "extra"])
        if action == "drop":
            del target[key]
        elif action == "replace":
            target[key] = junk
        else:
            target[f"unexpected{rng.randint(0, 9)}"] = junk
    elif isinstance(target, list) and target:
        target[rng.randrange(len(target))] = junk
    else:
        return junk
    return document


def mutated(documents: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Documents of ``documents`` with one mutation each (most become invalid)."""
    return st.builds(
        lambda doc, seed, junk: _mutate(json.loads(json.dumps(doc)), random.Random(seed), junk),
        documents,
        st.integers(min_value=0, max_value=2**32),
        _JUNK,
    )
