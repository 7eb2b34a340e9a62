"""Contracts as tools publish them in ``tools/list``: lean inputs, compact outputs.

Both forms accept exactly what the contract accepts (``tests/contracts/test_published.py``
proves it); they differ in what they cost every session that lists the tools.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

from automium_build.bundling import Json, still_a_schema
from automium_build.schema_walk import below, bottom_up, each

_NOT_PUBLISHED = frozenset({"$schema", "$id", "title"})


def publish(bundled: Json, documents: Mapping[str, str]) -> Json:
    """The published form of a tool's input: the bundled contract as lean as it stays exact.

    - a property that takes a whole other document contract (``documents``: definition title
      -> contract name) names it instead of inlining it, so a tool that takes a journey does
      not repeat the journey contract (the server still checks it in full);
    - ``$schema``, ``$id`` and titles go;
    - a definition of a plain value (a pattern, an enum) loses its description: every
      property that uses it carries its own;
    - the root loses its description: the tool's own description says what the input is;
    - a discriminated union is written once (:func:`_flatten`);
    - a definition used once is written where it is used;
    - a ``type`` that an ``enum`` of strings or a ``const`` implies goes.
    What the schema accepts does not change (a test proves it, nested documents aside).
    """

    def walk(node: Any) -> Any:
        if isinstance(node, list):
            return [walk(item) for item in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.removeprefix("#/$defs/") in documents:
            contract = documents[ref.removeprefix("#/$defs/")]
            described = node.get("description", "")
            return {
                "type": "object",
                "description": f"{described} (a whole {contract} document)".strip(),
            }
        kept = {k: v for k, v in node.items() if k != "$defs" and k not in _NOT_PUBLISHED}
        return each(kept, walk)

    published: Json = walk(bundled)
    published.pop("description", None)
    if "$defs" in bundled:
        defs = {k: _plain(walk(v)) for k, v in bundled["$defs"].items() if k not in documents}
        for name, union in list(defs.items()):
            if "discriminator" in bundled["$defs"][name]:
                tag = bundled["$defs"][name]["discriminator"]["propertyName"]
                defs[name] = _flatten(union, tag, defs)
        # A definition used once says no more than its one use: it is written there, and
        # the use's own description (the property's) replaces the definition's.
        published, defs = _inlined(published, _reachable(published, defs), _DESCRIPTION)
        if defs:
            published["$defs"] = defs
    published = _portable(_implied(published))
    still_a_schema(published)
    return published


def _flatten(union: Json, tag: str, defs: Json) -> Json:
    """A discriminated union as one object: every property of every branch, each once, and
    an ``anyOf`` of one branch per shape: its tag (or tags), its required properties, the
    names of the properties it takes, and its own constraints where they differ.

    Exactly what the ``oneOf`` accepts: the tag is required and one of the tags, so only
    the branch that names it can match, and that branch gives back its shape's required,
    allowed and constrained properties. Tags of the same shape share a branch (five step
    intents act on a target and take nothing else), with their descriptions in turn.
    Written this way, a journey's thirteen step shapes repeat no property.
    """
    branches = [defs[b["$ref"].removeprefix("#/$defs/")] for b in union["oneOf"]]
    names = list(dict.fromkeys(name for b in branches for name in b["properties"]))
    shared: Json = {}
    for name in names:
        having = [b for b in branches if name in b["properties"]]
        shapes = [_undescribed(b["properties"][name]) for b in having]
        if name == tag:
            shared[name] = {"enum": [b["properties"][tag]["const"] for b in branches]}
            continue
        shape = shapes[0] if all(s == shapes[0] for s in shapes) else _common_type(shapes, defs)
        shared[name] = {**shape, **_described(name, tag, having, defs)}
    # What every branch requires is required once, beside the tag.
    everywhere = [
        r
        for r in branches[0].get("required", [])
        if all(r in b.get("required", []) for b in branches)
    ]
    shapes_by_key: dict[str, tuple[list[Any], list[str], Json]] = {}
    for branch in branches:
        shape = {}
        required = [r for r in branch.get("required", []) if r not in everywhere]
        if required:
            shape["required"] = required
        own = {
            name: _undescribed(schema)
            for name, schema in branch["properties"].items()
            if name != tag and _undescribed(shared[name]) != _undescribed(schema)
        }
        if own:
            shape["properties"] = own
        taken = [name for name in names if name in branch["properties"]]
        if taken != names:  # the properties it takes, which says which it does not
            shape["propertyNames"] = {"enum": taken}
        shape.update({k: v for k, v in branch.items() if k not in _FLATTENED})
        tags, descriptions, _ = shapes_by_key.setdefault(
            json.dumps(shape, sort_keys=True), ([], [], shape)
        )
        tags.append(branch["properties"][tag]["const"])
        descriptions.append(branch.get("description", ""))
    return {
        **{k: v for k, v in union.items() if k not in ("oneOf", "discriminator")},
        "type": "object",
        "required": [tag, *(r for r in everywhere if r != tag)],
        "properties": shared,
        "additionalProperties": False,
        "anyOf": [
            {
                "description": " ".join(d for d in descriptions if d),
                "properties": {
                    tag: {"const": tags[0]} if len(tags) == 1 else {"enum": tags},
                    **shape.get("properties", {}),
                },
                **{k: v for k, v in shape.items() if k != "properties"},
            }
            for tags, descriptions, shape in shapes_by_key.values()
        ],
    }


def _common_type(shapes: list[Any], defs: Json) -> Json:
    """``{"type": t}`` when every branch's schema of a property has type ``t`` (each branch's
    rule keeps its own constraints), so the shared property is never an untyped schema."""
    kinds = set()
    for shape in shapes:
        target = shape
        while (
            isinstance(target, dict)
            and isinstance(target.get("$ref"), str)
            and "type" not in target
        ):
            target = defs[target["$ref"].removeprefix("#/$defs/")]
        kinds.add(json.dumps(target.get("type")) if isinstance(target, dict) else None)
    (kind,) = kinds if len(kinds) == 1 else (None,)
    return {"type": json.loads(kind)} if kind not in (None, "null") else {}


# A branch's keywords the flattened union states itself; any other one moves to its rule.
_FLATTENED = frozenset({"type", "properties", "required", "additionalProperties", "description"})


def _described(name: str, tag: str, having: list[Json], defs: Json) -> Json:
    """The description of a flattened property: the branches' own when they agree, none when
    a described definition says it, else what it means for each tag."""
    texts = list(dict.fromkeys(b["properties"][name].get("description", "") for b in having))
    if len(texts) == 1:
        return {"description": texts[0]} if texts[0] else {}
    ref = having[0]["properties"][name].get("$ref", "")
    if defs.get(ref.removeprefix("#/$defs/"), {}).get("description"):
        return {}
    meanings = [(b["properties"][tag]["const"], b["properties"][name]) for b in having]
    each = "; ".join(f"{c}: {p.get('description', '').rstrip('.')}" for c, p in meanings)
    return {"description": each}


_DESCRIPTION = frozenset({"description"})


def _undescribed(schema: Any) -> Any:
    return (
        {k: v for k, v in schema.items() if k != "description"}
        if isinstance(schema, dict)
        else schema
    )


def _plain(definition: Json) -> Json:
    """A definition without its description when it only constrains a value."""
    if "properties" in definition or "oneOf" in definition or "$ref" in definition:
        return definition
    return {k: v for k, v in definition.items() if k != "description"}


def publish_output(checks: Json) -> Json:
    """The published form of a tool's output: the validation projection, compacted for the
    bytes every session pays, since a client validates with it and the model reads none of
    it. Exactly what the projection accepts (a test proves it):

    - keywords another keyword implies go (``type`` beside a string ``enum`` or a ``const``);
    - identical definitions merge, a definition used once is written where it is used, and
      the others get one-letter names;
    - a nullable enum lists ``null`` instead of a ``oneOf`` with ``null``;
    - a closed object that requires every property it has says so with ``minProperties``
      (with ``additionalProperties: false`` it cannot have more, so it has them all).
    """
    compact: Json = _implied(checks)
    defs: Json = compact.pop("$defs", {})
    while True:  # merging two definitions can make two others identical
        first: dict[str, str] = {}
        same = {}
        for name, schema in defs.items():
            key = json.dumps(schema, sort_keys=True)
            if key in first:
                same[name] = first[key]
            else:
                first[key] = name
        if not same:
            break
        defs = _renamed({k: v for k, v in defs.items() if k not in same}, same)
        compact = _renamed(compact, same)
    compact, defs = _inlined(compact, defs)
    compact, defs = _factored(compact, defs)
    names = {name: _letters(i) for i, name in enumerate(defs)}
    published: Json = _portable(_closed(_renamed(compact, names)))
    if defs:
        published["$defs"] = {
            names[k]: _portable(_closed(_renamed(v, names))) for k, v in defs.items()
        }
    still_a_schema(published)
    return published


def _inlined(root: Json, defs: Json, overriding: frozenset[str] = frozenset()) -> tuple[Json, Json]:
    """``root`` and ``defs`` with every definition that is used once, by no definition that
    it uses itself, written in place of its ``$ref`` (where the ``$ref``'s siblings, if any,
    constrain other keywords than the definition does, so merging loses none; a sibling in
    ``overriding``, an annotation, replaces the definition's own)."""
    while True:
        uses = Counter(_refs([root, *defs.values()]))
        once = next(
            (
                n
                for n in defs
                if uses[n] == 1
                and n not in _refs([defs[n]])
                and not _clashes([root, *defs.values()], n, defs[n], overriding)
            ),
            None,
        )
        if once is None:
            return root, defs
        body = defs.pop(once)
        root = _replaced(root, once, body)
        defs = {k: _replaced(v, once, body) for k, v in defs.items()}


def _refs(nodes: list[Any]) -> Iterator[str]:
    stack = list(nodes)
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                yield ref.removeprefix("#/$defs/")
            stack.extend(below(node))
        elif isinstance(node, list):
            stack.extend(node)


def _factored(root: Json, defs: Json) -> tuple[Json, Json]:
    """``root`` and ``defs`` with each schema written several times made a definition, while
    that saves bytes (a ``$ref`` costs about 20)."""
    while True:
        seen: Counter[str] = Counter()
        for node in _schemas([root, *defs.values()]):
            seen[json.dumps(node, sort_keys=True, separators=(",", ":"))] += 1
        best = max(
            (
                (count * (len(key) - 20) - len(key) - 8, key)
                for key, count in seen.items()
                if count > 1
            ),
            default=(0, ""),
        )
        if best[0] <= 0:
            return root, defs
        body = json.loads(best[1])
        name = f"shared{len(defs)}"
        root, defs = (
            _swapped(root, body, name),
            {k: _swapped(v, body, name) for k, v in defs.items()},
        )
        defs[name] = body


def _schemas(nodes: list[Any]) -> Iterator[Json]:
    """Every schema object below ``nodes`` (not the nodes themselves)."""
    stack = [sub for node in nodes if isinstance(node, dict) for sub in below(node)]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if "$ref" not in node:
                yield node
            stack.extend(below(node))
        elif isinstance(node, list):
            stack.extend(node)


def _swapped(node: Any, body: Json, name: str) -> Any:
    """``node`` with every schema equal to ``body`` below it replaced by a ``$ref`` to
    ``name``."""
    if isinstance(node, list):
        return [_swapped(item, body, name) for item in node]
    if not isinstance(node, dict):
        return node
    return each(
        node, lambda sub: {"$ref": f"#/$defs/{name}"} if sub == body else _swapped(sub, body, name)
    )


def _clashes(nodes: list[Any], name: str, body: Json, overriding: frozenset[str]) -> bool:
    """Whether a ``$ref`` to ``name`` has a sibling keyword that ``body`` has too (one in
    ``overriding`` aside)."""
    stack = list(nodes)
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            siblings = node.keys() - {"$ref"} - overriding
            if node.get("$ref") == f"#/$defs/{name}" and siblings & body.keys():
                return True
            stack.extend(below(node))
        elif isinstance(node, list):
            stack.extend(node)
    return False


def _replaced(node: Any, name: str, body: Json) -> Any:
    if isinstance(node, list):
        return [_replaced(item, name, body) for item in node]
    if not isinstance(node, dict):
        return node
    if node.get("$ref") == f"#/$defs/{name}":
        return {**body, **{k: v for k, v in node.items() if k != "$ref"}}
    return each(node, lambda sub: _replaced(sub, name, body))


def _closed(node: Any) -> Any:
    """``node`` with its nullable enums merged and its all-required closed objects written
    with ``minProperties`` (see :func:`publish_output`)."""
    return bottom_up(node, _closed_one)


def _closed_one(out: Json) -> Json:
    branches = out.get("oneOf")
    if isinstance(branches, list) and len(branches) == 2 and {"type": "null"} in branches:
        (other,) = [b for b in branches if b != {"type": "null"}]
        if other.keys() == {"enum"} and None not in other["enum"]:
            out.pop("oneOf")
            out = {"enum": [*other["enum"], None], **out}
    required, properties = out.get("required"), out.get("properties")
    if (
        out.get("additionalProperties") is False
        and isinstance(required, list)
        and isinstance(properties, dict)
        and len(required) > 1
        and set(required) == set(properties)
        and "patternProperties" not in out
    ):
        del out["required"]
        out["minProperties"] = len(required)
    return out


def _letters(index: int) -> str:
    """Short definition names: a to z, then A to Z, then two letters."""
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    name = alphabet[index % len(alphabet)]
    index //= len(alphabet)
    while index:
        index -= 1
        name = alphabet[index % len(alphabet)] + name
        index //= len(alphabet)
    return name


# The keywords that judge only values of one type: a branch of a split type list keeps its own.
_TYPED_KEYWORDS: Mapping[str, frozenset[str]] = {
    "number": frozenset(
        {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}
    ),
    "string": frozenset({"minLength", "maxLength", "pattern", "format"}),
    "array": frozenset({"items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains"}),
    "object": frozenset(
        {
            "properties",
            "required",
            "additionalProperties",
            "patternProperties",
            "propertyNames",
            "minProperties",
            "maxProperties",
        }
    ),
}
_TYPED_KEYWORDS = {**_TYPED_KEYWORDS, "integer": _TYPED_KEYWORDS["number"]}


def _portable(node: Any) -> Any:
    """``node`` as strict clients read it (Ajv's strict mode, the Inspector's ``--strict``):
    a list of types becomes an ``anyOf`` of one type each, each branch with the keywords that
    judge its type. Same acceptance."""
    return bottom_up(node, _portable_one)


def _portable_one(out: Json) -> Json:
    kinds = out.get("type")
    if isinstance(kinds, list):
        typed = {k for kind in kinds for k in _TYPED_KEYWORDS.get(kind, ())}
        rest = {k: v for k, v in out.items() if k != "type" and k not in typed}
        branches = [
            {"type": kind, **{k: v for k, v in out.items() if k in _TYPED_KEYWORDS.get(kind, ())}}
            for kind in kinds
        ]
        return {**rest, "anyOf": branches}
    return out


def _implied(node: Any) -> Any:
    """``node`` without the ``type`` its ``const`` or string ``enum`` already implies. (Not
    the ``type`` beside a ``$ref`` to a definition of that type: Ajv's strict mode wants a
    ``maxLength`` to sit beside its ``type``.)"""
    return bottom_up(node, _implied_one)


def _implied_one(out: Json) -> Json:
    strings = isinstance(out.get("enum"), list) and all(isinstance(e, str) for e in out["enum"])
    if "const" in out or (strings and out.get("type") == "string"):
        out.pop("type", None)
    return out


def _renamed(node: Any, names: Mapping[str, str]) -> Any:
    """``node`` with every local ``$ref`` to a renamed definition pointing at its new name."""

    def rename(out: Json) -> Json:
        ref = out.get("$ref")
        name = ref.removeprefix("#/$defs/") if isinstance(ref, str) else ""
        return {**out, "$ref": f"#/$defs/{names[name]}"} if name in names else out

    return bottom_up(node, rename)


def _reachable(root: Json, defs: Json) -> Json:
    """The definitions ``root`` still refers to, directly or through one another."""
    seen: set[str] = set()
    stack: list[Any] = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                name = ref.removeprefix("#/$defs/")
                if name not in seen and name in defs:
                    seen.add(name)
                    stack.append(defs[name])
            stack.extend(v for k, v in node.items() if k != "$defs")
        elif isinstance(node, list):
            stack.extend(node)
    return {k: v for k, v in defs.items() if k in seen}
