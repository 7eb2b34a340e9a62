"""The contracts themselves: well-formed, strict, described, and matched by their models."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from pydantic import ValidationError

from automium.contracts import bundled_schema, contract_names, model_for, to_document, to_json
from automium.validation import check
from tests.contracts.invalid import EXAMPLES, invalid_documents

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted((ROOT / "contracts").glob("*.schema.json"))
DOCUMENTS = [name for name in contract_names() if name != "common"]  # common is only $defs


def _source(path: Path) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return document


def _subschemas(node: Any, where: str = "#") -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(node, dict):
        yield where, node
        for key, value in node.items():
            yield from _subschemas(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _subschemas(value, f"{where}/{index}")


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_every_contract_is_a_valid_2020_12_schema_with_an_id(path: Path) -> None:
    schema = _source(path)
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"].endswith("/" + path.name)
    assert schema["title"]
    assert schema["description"]


def test_contract_ids_are_unique() -> None:
    ids = [_source(p)["$id"] for p in SOURCES]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_every_object_forbids_extra_properties(path: Path) -> None:
    loose = [
        where
        for where, node in _subschemas(_source(path))
        if node.get("type") == "object"
        # a typed map (additionalProperties is a schema) is explicit, not open
        and not isinstance(node.get("additionalProperties"), dict)
        and node.get("additionalProperties") is not False
    ]
    assert loose == []


def _described(prop: dict[str, Any], owner: dict[str, Any], defs: dict[str, Any]) -> bool:
    """A property says what it is itself, or through the one local definition it names (a
    step's ``id`` is a StepId, described once), or, as a variant's tag (``"const"``),
    through the variant's own description."""
    if "description" in prop:
        return True
    local = str(prop.get("$ref", "")).removeprefix("#/$defs/")
    if set(prop) == {"$ref"} and local in defs:
        return "description" in defs[local]
    return set(prop) == {"const"} and "description" in owner


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_every_property_and_definition_is_described(path: Path) -> None:
    schema = _source(path)
    defs = schema.get("$defs", {})
    undescribed = [
        f"{where}/properties/{name}"
        for where, node in _subschemas(schema)
        if isinstance(node.get("properties"), dict)
        for name, prop in node["properties"].items()
        if not _described(prop, node, defs)
    ] + [f"#/$defs/{name}" for name, d in defs.items() if "description" not in d]
    assert undescribed == []


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_every_document_type_pins_its_schema_version(path: Path) -> None:
    schema = _source(path)
    documents = [schema] if "properties" in schema else []
    documents += [
        d for d in schema.get("$defs", {}).values() if "messageType" in d.get("properties", {})
    ]
    for document in documents:
        version = document["properties"].get("schemaVersion", {})
        # Inputs carry no schemaVersion, or an optional one: agents should not have to.
        if "schemaVersion" in document.get("required", []) or version:
            assert version["const"].startswith("automium.")
            assert version["const"].endswith("/v1")


def test_the_worked_journey_of_the_design_validates() -> None:
    worked = json.loads((EXAMPLES / "journey.v1" / "valid-worked-example.json").read_text())
    assert worked["id"] == "shop-lite.buy-one-mug"
    assert check("journey.v1", worked) == []


def test_every_contract_has_valid_examples_and_at_least_three_invalid_documents() -> None:
    rows = invalid_documents()
    for name in DOCUMENTS:
        assert list((EXAMPLES / name).glob("valid-*.json")), name
        whys = [why for contract, why, _, _ in rows if contract == name]
        assert len(whys) >= 3, name
        assert any(why.startswith("extra property") for why in whys), name


@pytest.mark.parametrize(
    "path", sorted(EXAMPLES.glob("*/valid-*.json")), ids=lambda p: f"{p.parent.name}/{p.name}"
)
def test_valid_examples_pass_the_contract_and_round_trip_through_the_model(path: Path) -> None:
    contract, text = path.parent.name, path.read_text("utf-8")
    document = json.loads(text)
    assert check(contract, document) == []
    model = model_for(contract).model_validate_json(text, strict=True)
    assert json.dumps(to_document(model)) == json.dumps(document)


@pytest.mark.parametrize(
    ("contract", "document", "schema_only"),
    [pytest.param(c, d, s, id=f"{c}: {why}") for c, why, d, s in invalid_documents()],
)
def test_a_document_that_breaks_a_rule_is_rejected_by_the_contract_and_the_model(
    contract: str, document: Any, schema_only: bool
) -> None:
    assert check(contract, document) != []
    if not schema_only:
        with pytest.raises(ValidationError):
            model_for(contract).model_validate_json(json.dumps(document), strict=True)


@pytest.mark.parametrize("name", DOCUMENTS)
def test_every_contract_document_has_a_generated_model_named_by_its_title(name: str) -> None:
    assert model_for(name).__name__ == bundled_schema(name)["title"]


def test_every_name_the_facade_exports_resolves() -> None:
    import automium.contracts as facade  # noqa: PLC0415

    for name in facade.__all__:
        assert getattr(facade, name) is not None


@pytest.mark.parametrize("name", contract_names())
def test_bundled_schemas_are_self_contained(name: str) -> None:
    refs = [n["$ref"] for _, n in _subschemas(bundled_schema(name)) if "$ref" in n]
    assert all(ref.startswith("#/$defs/") for ref in refs)
    Draft202012Validator.check_schema(dict(bundled_schema(name)))


def test_a_documents_json_text_is_compact_utf8_and_written_for_any_string() -> None:
    assert (
        to_json({"a": [1.5, None, True], "b": "é\u2028"}) == '{"a":[1.5,null,true],"b":"é\u2028"}'
    )
    # A lone surrogate has no UTF-8 (no wire message can carry one); in process it is kept.
    assert json.loads(to_json({"s": "\ud800"})) == {"s": "\ud800"}
