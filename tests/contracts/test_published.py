"""What tools/list publishes accepts exactly what the contracts accept.

The published schemas are regen's lean projections (``tool-inputs/``, ``tool-outputs/``):
no titles, merged and renamed definitions, flattened unions. ``jsonschema`` judges both
sides here, as the reference: every generated document, valid or one mutation away from
valid, gets the same verdict from the published schema as from the full contract.

One difference is by design and set aside: a tool input names a nested document contract
(the journey inside a run submission) as ``{"type": "object"}`` instead of repeating it, so
the published schema accepts a wrong journey there that the contract refuses; the server
still checks it in full (``tests/domain/test_capabilities.py``). A refusal whose every error
lies inside such a nested document is that case.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

import jsonschema_rs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from automium.capabilities import BY_NAME, CAPABILITIES
from automium.contracts import bundled_schema, tool_input_schema, tool_output_schema
from tests.cases import TOOLS
from tests.conftest import examples
from tests.contracts.invalid import EXAMPLES
from tests.strategies import from_schema, mutated

INPUTS = sorted({c.input_contract for c in CAPABILITIES})
OUTPUTS = sorted({c.output_contract for c in CAPABILITIES})
DIFFERENTIAL = settings(
    max_examples=max(1, examples(at_most=300) // 4),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@cache
def _validator(schema_json: str) -> Draft202012Validator:
    return Draft202012Validator(json.loads(schema_json))


def _judge(schema: Mapping[str, Any]) -> Draft202012Validator:
    return _validator(json.dumps(schema, sort_keys=True))


@cache
def _nested_documents(contract: str) -> tuple[str, ...]:
    """JSON Pointers (``*`` for any index) where ``contract``'s published input has a stub."""
    published = tool_input_schema(contract)
    stubs: list[str] = []

    def walk(node: Any, where: str) -> None:
        if not isinstance(node, Mapping):
            return
        if "a whole" in str(node.get("description", "")) and node.get("type") == "object":
            stubs.append(where)
        for name, sub in (node.get("properties") or {}).items():
            walk(sub, f"{where}/{name}")
        if isinstance(node.get("items"), Mapping):
            walk(node["items"], f"{where}/*")

    walk(published, "")
    return tuple(stubs)


def _inside(path: tuple[Any, ...], stubs: tuple[str, ...]) -> bool:
    parts = [str(p) for p in path]
    for stub in stubs:
        pattern = stub.split("/")[1:]
        if len(parts) > len(pattern) and all(
            want in ("*", got) for want, got in zip(pattern, parts, strict=False)
        ):
            return True
        if len(parts) == len(pattern) and all(
            want in ("*", got) for want, got in zip(pattern, parts, strict=True)
        ):
            return True
    return False


@cache
def _examples(contract: str) -> list[Any]:
    return [json.loads(p.read_text("utf-8")) for p in sorted((EXAMPLES / contract).glob("*.json"))]


@cache
def _outputs(contract: str) -> list[Any]:
    """What the tools answer that give ``contract``, for every success case."""
    return [
        BY_NAME[name].answer(arguments)[1]
        for name, cases in TOOLS.items()
        if BY_NAME[name].output_contract == contract
        for arguments in cases.successes.values()
    ]


@cache
def _documents(contract: str, output: bool) -> st.SearchStrategy[Any]:
    """Documents of ``contract`` (generated, examples, answers), and each one mutated."""
    schema = bundled_schema(contract)
    known = _examples(contract) + (_outputs(contract) if output else [])
    generated = from_schema(schema)
    seeds = st.one_of(st.sampled_from(known), generated) if known else generated
    return st.one_of(generated, seeds, mutated(seeds))


@pytest.mark.fuzz
@pytest.mark.parametrize("contract", INPUTS)
@DIFFERENTIAL
@given(data=st.data())
def test_a_published_input_schema_judges_every_document_as_its_contract_does(
    contract: str, data: st.DataObject
) -> None:
    document = data.draw(_documents(contract, output=False), label="document")
    full = list(_judge(bundled_schema(contract)).iter_errors(document))
    published = _judge(tool_input_schema(contract)).is_valid(document)
    if not full:
        assert published, "the published schema refuses what the contract accepts"
    elif published:
        stubs = _nested_documents(contract)
        outside = [e.json_path for e in full if not _inside(tuple(e.absolute_path), stubs)]
        assert outside == [], "the published schema accepts what the contract refuses"


@pytest.mark.fuzz
@pytest.mark.parametrize("contract", OUTPUTS)
@DIFFERENTIAL
@given(data=st.data())
def test_a_published_output_schema_judges_every_document_as_its_contract_does(
    contract: str, data: st.DataObject
) -> None:
    document = data.draw(_documents(contract, output=True), label="document")
    full = _judge(bundled_schema(contract)).is_valid(document)
    assert _judge(tool_output_schema(contract)).is_valid(document) is full


@pytest.mark.parametrize("contract", OUTPUTS)
def test_every_answer_of_a_tool_passes_its_published_output_schema(contract: str) -> None:
    answers = _outputs(contract) + _examples(contract)
    refused = [d for d in answers if not _judge(tool_output_schema(contract)).is_valid(d)]
    assert answers
    assert refused == []


# --- every document one edit away from a known one -------------------------------------------


def _edges(schema: Any) -> dict[str, list[Any]]:
    """Per property name, the values at the edges of what the schema allows it: its enums
    and consts, each bound and one past it, strings at and past each length limit, a value
    of another type."""
    edges: dict[str, list[Any]] = {}
    root = schema

    def values(node: Any, depth: int = 0) -> list[Any]:
        if not isinstance(node, Mapping) or depth > 4:
            return []
        if isinstance(node.get("$ref"), str):
            return values(root["$defs"][node["$ref"].removeprefix("#/$defs/")], depth + 1)
        found: list[Any] = [*node.get("enum", ()), *([node["const"]] if "const" in node else [])]
        for bound, step in (("minimum", -1), ("maximum", 1)):
            if isinstance(node.get(bound), int | float):
                found += [node[bound], node[bound] + step]
        for bound, step in (("minLength", -1), ("maxLength", 1)):
            if isinstance(node.get(bound), int):
                found.append("a" * max(0, node[bound] + step))
        for bound, step in (("minItems", -1), ("maxItems", 1)):
            if isinstance(node.get(bound), int) and node[bound] + step >= 0:
                found.append(["a"] * (node[bound] + step))
        for branch in node.get("oneOf", ()):
            found += values(branch, depth + 1)
        return found

    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, Mapping):
            for name, sub in (node.get("properties") or {}).items():
                edges.setdefault(name, [None, "x", -1, 1.5, {}]).extend(values(sub))
            stack.extend(v for k, v in node.items() if k not in ("enum", "const"))
    return edges


def _samples(documents: list[Any]) -> dict[str, Any]:
    """Per property name, a value some known document gives it."""
    found: dict[str, Any] = {}
    stack = list(documents)
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key, value in node.items():
                found.setdefault(key, value)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


def _neighbours(contract: str, seeds: list[Any]) -> Iterator[Any]:
    """Every document one edit away from a seed: a property set to an edge value, dropped,
    or added (one that another object of the contract has, with a value seen there)."""
    edges, samples = _edges(bundled_schema(contract)), _samples(seeds)
    for seed in seeds:
        paths: list[tuple[Any, ...]] = [()]
        for path in paths:
            node = _at(seed, path)
            keys = node if isinstance(node, dict) else range(min(len(node), 2))
            paths += [(*path, k) for k in keys if isinstance(_at(seed, (*path, k)), dict | list)]
        for path in paths:
            node = _at(seed, path)
            if not isinstance(node, dict):
                continue
            for key in node:
                yield _edited(seed, path, key, _DROP)
                for value in edges.get(key, ()):
                    yield _edited(seed, path, key, value)
            for name in sorted(samples.keys() - node.keys()):
                yield _edited(seed, path, name, samples[name])
            yield _edited(seed, path, "unexpected", 1)


_DROP = object()


def _at(document: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        document = document[part]
    return document


def _edited(seed: Any, path: tuple[Any, ...], key: str, value: Any) -> Any:
    document = json.loads(json.dumps(seed))
    node = _at(document, path)
    if value is _DROP:
        del node[key]
    else:
        node[key] = value
    return document


def _answers(contract: str) -> list[Any]:
    return _examples(contract) + _outputs(contract)


@pytest.mark.fuzz
@pytest.mark.parametrize(
    ("contract", "published", "seeds"),
    [
        *(pytest.param(c, tool_input_schema, _examples, id=f"input {c}") for c in INPUTS),
        *(pytest.param(c, tool_output_schema, _answers, id=f"output {c}") for c in OUTPUTS),
    ],
)
def test_every_document_one_edit_from_a_known_one_is_judged_as_its_contract_does(
    contract: str, published: Any, seeds: Any
) -> None:
    full = jsonschema_rs.validator_for(dict(bundled_schema(contract)))
    lean = jsonschema_rs.validator_for(dict(published(contract)))
    stubs = _nested_documents(contract) if published is tool_input_schema else ()
    disagree, checked = [], 0
    for document in _neighbours(contract, seeds(contract)):
        checked += 1
        verdict = full.is_valid(document)
        if lean.is_valid(document) == verdict:
            continue
        errors = [tuple(e.instance_path) for e in full.iter_errors(document)]
        if verdict or not all(_inside(path, stubs) for path in errors):
            disagree.append(document)
    assert checked > 0
    assert disagree[:1] == []


def test_the_nested_documents_set_aside_are_the_journeys_and_events() -> None:
    assert {c: _nested_documents(c) for c in INPUTS if _nested_documents(c)} == {
        "artifact-manifest-input.v1": ("/journey",),
        "compare-planners-input.v1": ("/journeys/*",),
        "replay-summary-input.v1": ("/events/*",),
        "run-submission-input.v1": ("/journey",),
    }


def test_the_judge_tells_a_document_inside_a_nested_one_from_one_outside() -> None:
    stubs = ("/journeys/*",)
    assert _inside(("journeys", 3, "steps", 0), stubs)
    assert _inside(("journeys", 3), stubs)
    assert not _inside(("journeys",), stubs)
    assert not _inside(("appIds", 0), stubs)
