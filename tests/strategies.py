"""Hypothesis strategies generated from a bundled contract, and mutations of them.

A small generator for the JSON Schema subset the contracts use (objects, arrays, strings
with patterns, numbers, enums, consts, ``oneOf`` and local ``$ref``), written here because
hypothesis-jsonschema no longer runs on current Hypothesis. Generated documents are meant
to be schema-valid; the differential and fuzz tests check that with the real validator
rather than trusting this module.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping
from typing import Any

from hypothesis import strategies as st

Schema = Mapping[str, Any]
_MAX_ITEMS = 4  # keeps examples small; size limits have their own tests


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
    return builder(schema, root) if builder else JUNK


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
    pattern: str | None = schema.get("pattern")
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


_BUILDERS: dict[str, Callable[[Schema, Schema], st.SearchStrategy[Any]]] = {
    "object": _object,
    "array": _array,
    "string": _string,
    "integer": _integer,
    "number": _number,
    "boolean": lambda _s, _r: st.booleans(),
}


WEIRD_STRINGS = st.sampled_from(
    [
        "",
        " ",
        "\x00",
        "\t\r\n",
        "../../../etc/passwd",
        "/etc/passwd",
        "C:\\Windows\\system32",
        "file:///etc/shadow",
        "https://example.com/",
        "javascript:alert(1)",
        "~/.ssh/id_rsa",
        "${jndi:ldap://example.com/a}",
        "{{7*7}}",
        "' OR 1=1 --",
        "__proto__",
        "\u202eevil",
        "\ufeff",
        "é\u200b\u0301",
        "\U0001d518\U0001d52b\U0001d526",  # mathematical fraktur, outside the BMP
        "a" * 2001,
        "shop-lite\n",
        "SHOP-LITE",
    ]
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from([2**63, -(2**63) - 1, 2**64, 10**30, -(10**30), 10**400]),
    st.floats(),  # NaN and infinities too: the SDK's JSON parser accepts them
    st.text(st.characters(exclude_categories=["Cs"]), max_size=50),
    WEIRD_STRINGS,
)
JUNK = st.recursive(
    SCALARS,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(st.one_of(st.text(max_size=8), WEIRD_STRINGS), children, max_size=4),
    ),
    max_leaves=12,
)


def _containers(document: Any) -> list[Any]:
    found: list[Any] = []
    stack = [document]
    while stack:
        node = stack.pop()
        if isinstance(node, dict | list):
            found.append(node)
            stack.extend(node.values() if isinstance(node, dict) else node)
    return found


def _mutate(draw: st.DrawFn, document: Any) -> Any:
    """``document`` with one mutation somewhere (a copy: generated values may be shared)."""
    document = copy.deepcopy(document)
    containers = _containers(document)
    if not containers or draw(st.integers(0, 19)) == 0:
        return draw(JUNK)  # the arguments as a whole are junk
    target = draw(st.sampled_from(containers))
    if isinstance(target, dict):
        action = draw(st.sampled_from(["drop", "replace", "extra", "null"]))
        if action == "extra" or not target:
            target[draw(st.one_of(st.text(max_size=12), WEIRD_STRINGS))] = draw(JUNK)
        else:
            key = draw(st.sampled_from(sorted(target)))
            if action == "drop":
                del target[key]
            else:
                target[key] = None if action == "null" else draw(JUNK)
    else:
        action = draw(st.sampled_from(["replace", "append", "clear", "repeat"]))
        if action == "replace" and target:
            target[draw(st.integers(0, len(target) - 1))] = draw(JUNK)
        elif action == "clear":
            target.clear()
        elif action == "repeat" and target:
            target.extend(target * draw(st.integers(1, 3)))
        else:
            target.append(draw(JUNK))
    return document


@st.composite
def mutated(draw: st.DrawFn, documents: st.SearchStrategy[Any]) -> Any:
    """Documents of ``documents`` with one mutation each (most become invalid)."""
    return _mutate(draw, draw(documents))
