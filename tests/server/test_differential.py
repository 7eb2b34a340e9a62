"""A tool accepts exactly what its published input schema accepts.

Documents are generated from each tool's published input schema, and mutated. A reference
validator (jsonschema, with ECMA-262 ``$`` as the 2020-12 dialect specifies) decides; the
tool must reject every document the schema rejects, and may reject a schema-valid one only
for a corpus rule, with that rule's specific code.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError

from automium.capabilities import BY_NAME
from automium.errors import AutomiumError
from automium.mcp_server import tools
from automium.validation import check
from tests.strategies import from_schema, mutated

# Codes a schema-valid input can still earn: rules that live in the corpus, not the schema.
CORPUS_RULES: Mapping[str, set[str]] = {
    "automium_list_apps": set(),
    "automium_list_fixtures": {"invalid_app_id"},
    "automium_compile_journey": {
        "invalid_app_id",
        "unknown_fixture",
        "fixture_app_mismatch",
        "unknown_route",
        "invalid_input",  # duplicate ids, dangling afterStep, another app's file
    },
    "automium_create_run_submission": {
        "invalid_app_id",
        "unknown_fixture",
        "fixture_app_mismatch",
        "invalid_input",  # unknown environment profile
    },
    "automium_get_replay_summary": {"invalid_input"},  # manifest ref of another run
    "automium_get_artifact_manifest": {"invalid_artifact_path", "invalid_input"},
    "automium_compare_planners": {
        "unsupported_corpus_version",
        "invalid_app_id",
        "invalid_input",  # duplicate planner ids
    },
}


def _ecma_pattern(
    _validator: Any, pattern: str, instance: Any, _schema: Any
) -> Iterator[ValidationError]:
    if isinstance(instance, str) and not re.search(re.sub(r"\$$", r"\\Z", pattern), instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


Reference = validators.extend(Draft202012Validator, {"pattern": _ecma_pattern})  # type: ignore[no-untyped-call]
PUBLISHED = {tool.name: tool.input_schema for tool in tools.list_tools_result().tools}


@pytest.mark.parametrize("name", list(PUBLISHED))
def test_the_tool_accepts_exactly_what_its_published_schema_accepts(name: str) -> None:
    schema = PUBLISHED[name]
    reference = Reference(schema)
    documents = from_schema(schema)
    seen = {"accepted": 0, "corpus-rule": 0, "rejected": 0}

    @settings(
        max_examples=150,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(st.one_of(documents, mutated(documents)))
    def differential(document: Any) -> None:
        # On the wire, absent and null arguments both mean "no arguments".
        schema_accepts = reference.is_valid({} if document is None else document)
        try:
            _, output = tools.answer(name, document)
        except AutomiumError as error:
            codes = {p.code.value for p in error.problems}
            if schema_accepts:
                assert codes <= CORPUS_RULES[name], (document, codes)
                seen["corpus-rule"] += 1
            else:
                seen["rejected"] += 1
            return
        assert schema_accepts, document
        operation = BY_NAME[name]
        assert check(operation.output_contract, output) == []
        seen["accepted"] += 1

    differential()
    assert seen["rejected"] > 0
    assert seen["accepted"] + seen["corpus-rule"] > 0
