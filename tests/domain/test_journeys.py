"""Journey validation and compilation: the corpus compiles, every defect is reported once
with its code and path, and every valid journey compiles to an acyclic graph.

The checks against the page models (targets, route parameters, files, secrets, warnings)
are in ``test_page_checks.py``; here the problems are those of the contract and the corpus.
"""

from __future__ import annotations

import copy
from graphlib import TopologicalSorter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from syrupy.assertion import SnapshotAssertion

from automium import corpus
from automium.compilation import compilation_document
from automium.contracts import ErrorCode, Intent, NodeType
from automium.errors import AutomiumError
from automium.journeys import build_graph, check_journey, render_mermaid
from automium.validation import check
from tests.cases import WORKED_EXAMPLE, reference_journey
from tests.conftest import examples
from tests.domain.page_journeys import valid_journeys
from tests.mutations import Document, Mutation, append_at, drop_at, set_at

INTENTS = tuple(i.value for i in Intent)
REFERENCE_IDS = [j.id for j in corpus.reference_journeys()]


def codes_and_paths(problems: tuple[Any, ...]) -> list[tuple[ErrorCode, str]]:
    return [(p.code, p.path) for p in problems]


def graph_problems(graph: Document) -> list[str]:
    """What is wrong with a graph's shape; empty when it has one entry, reaches an exit
    from every node, and has no cycle."""
    problems: list[str] = []
    ids = [n["id"] for n in graph["nodes"]]
    entries = [n["id"] for n in graph["nodes"] if n["type"] == NodeType.ENTRY]
    if entries != [graph["entry"]]:
        problems.append(f"entry nodes {entries}, declared entry {graph['entry']!r}")
    exits = set(graph["exits"])
    successors: dict[str, set[str]] = {i: set() for i in ids}
    for edge in graph["edges"]:
        successors[edge["from"]].add(edge["to"])
    if any(successors[e] for e in exits):
        problems.append("an exit has outgoing edges")
    try:
        order = list(TopologicalSorter(successors).static_order())
    except ValueError as cycle:
        return [*problems, f"cycle: {cycle}"]
    if sorted(order) != sorted(ids):
        problems.append("topological order does not cover the nodes")
    reaches_exit: set[str] = set()
    for node in order:  # static_order lists successors before the nodes pointing at them
        if node in exits or successors[node] & reaches_exit:
            reaches_exit.add(node)
    problems.extend(f"{n} reaches no exit" for n in ids if n not in reaches_exit)
    return problems


# --- the corpus -------------------------------------------------------------------------


@pytest.mark.parametrize("journey_id", REFERENCE_IDS)
def test_every_reference_journey_compiles_to_one_entry_and_no_cycle(journey_id: str) -> None:
    assert graph_problems(compilation_document(reference_journey(journey_id))["graph"]) == []


# A reviewer reads these in a PR: the graph as JSON (each node with its target's role and
# name) and its Mermaid drawing in Markdown, which GitHub draws in the diff.
@pytest.mark.parametrize("journey_id", REFERENCE_IDS)
def test_every_reference_journeys_graph_matches_its_json_snapshot(
    journey_id: str, snapshot_json: SnapshotAssertion
) -> None:
    graph = compilation_document(reference_journey(journey_id))["graph"]

    assert graph == snapshot_json


@pytest.mark.parametrize("journey_id", REFERENCE_IDS)
def test_every_reference_journeys_mermaid_drawing_matches_its_markdown_snapshot(
    journey_id: str, snapshot_markdown: SnapshotAssertion
) -> None:
    compilation = compilation_document({**reference_journey(journey_id), "mermaid": True})

    assert compilation["mermaid"] == snapshot_markdown


@pytest.mark.parametrize("journey_id", REFERENCE_IDS)
def test_every_target_of_a_reference_journey_is_kept_on_its_graph_node(journey_id: str) -> None:
    document = reference_journey(journey_id)
    nodes = {n["id"]: n for n in compilation_document(document)["graph"]["nodes"]}

    for prefix, items in (("step", document["steps"]), ("assert", document["assertions"])):
        for item in items:
            assert nodes[f"{prefix}:{item['id']}"].get("target") == item.get("target")


def test_a_credential_is_labelled_by_its_ref_in_the_graph_and_the_drawing() -> None:
    document = reference_journey("bank-sandbox.transfer-to-savings")
    ref = "account:bank-sandbox/customer#one-time-code"

    compilation = compilation_document({**document, "mermaid": True})

    (node,) = [n for n in compilation["graph"]["nodes"] if n["id"] == "step:enter-code"]
    assert node["label"] == f"fill One-time code = {ref}"
    assert (
        "fill One-time code = account:bank-sandbox/customer#35;one-time-code"
        in (compilation["mermaid"])
    )


def test_the_worked_example_compiles_to_a_straight_line_with_one_failure_exit() -> None:
    compilation = compilation_document(reference_journey())
    graph = compilation["graph"]

    steps = ["open-home", "search", "submit", "add", "checkout", "pay"]
    assert (
        compilation["journeyId"],
        compilation["stepCount"],
        compilation["assertionCount"],
    ) == (WORKED_EXAMPLE, 6, 2)
    assert compilation["corpusVersion"] == corpus.CORPUS_VERSION
    assert graph["entry"] == "entry"
    assert graph["exits"] == ["pass", "fail"]
    assert [n["id"] for n in graph["nodes"]] == [
        "entry",
        *(f"step:{s}" for s in steps),
        "assert:confirmed",
        "assert:thanks",
        "pass",
        "fail",
    ]
    assert len(graph["edges"]) == 1 + 2 * 8
    work = [n["id"] for n in graph["nodes"][1:-2]]
    assert [(e["from"], e["to"], e["on"]) for e in graph["edges"]] == [
        ("entry", "step:open-home", "start"),
        *(
            edge
            for node, following in zip(work, [*work[1:], "pass"], strict=True)
            for edge in ((node, following, "success"), (node, "fail", "exhausted"))
        ),
    ]
    assert all(n["retryBudget"] == 2 for n in graph["nodes"][1:-2])


def test_a_journey_that_marks_blocked_exits_to_blocked_instead_of_fail() -> None:
    document = reference_journey()
    document["recovery"]["onExhausted"] = "mark_blocked"

    graph = compilation_document(document)["graph"]

    assert graph["exits"] == ["pass", "blocked"]
    assert graph["nodes"][-1]["type"] == NodeType.BLOCKED
    assert {e["to"] for e in graph["edges"] if e["on"] == "exhausted"} == {"blocked"}


def test_compiling_the_same_journey_twice_gives_equal_documents() -> None:
    first = compilation_document(reference_journey())
    second = compilation_document(reference_journey())

    assert first == second


def test_a_typed_value_is_quoted_on_one_line_in_its_label_and_in_the_drawing() -> None:
    document = reference_journey()
    document["steps"][1]["value"] = '#1 "big" <mug>\nbox'

    compilation = compilation_document({**document, "mermaid": True})

    assert compilation["graph"]["nodes"][2]["label"] == 'fill Search = "#1 \\"big\\" <mug>\\nbox"'
    assert (
        '    n2["fill Search = #quot;#35;1 \\#quot;big\\#quot; #lt;mug#gt;\\nbox#quot;"]\n'
        in compilation["mermaid"]
    )


def test_the_mermaid_text_escapes_what_mermaid_would_read_as_syntax_in_any_label() -> None:
    graph = build_graph(reference_journey())
    graph["nodes"][1]["label"] = 'a "b" #c <d>\ne'

    text = render_mermaid(graph)

    assert '    n1["a #quot;b#quot; #35;c #lt;d#gt; e"]\n' in text
    assert text.startswith("flowchart TD\n")
    assert text.endswith("\n")


def test_drawing_a_graph_whose_edge_names_a_missing_node_is_refused() -> None:
    graph = build_graph(reference_journey())
    graph["edges"].append({"from": "step:pay", "to": "step:nowhere", "on": "success"})

    with pytest.raises(ValueError, match="step:nowhere"):
        render_mermaid(graph)


# --- invalid journeys -------------------------------------------------------------------


INVALID = ErrorCode.INVALID_INPUT
CASES: list[tuple[str, Mutation, list[tuple[ErrorCode, str]]]] = [
    ("unknown app", set_at("appId", value="shop-max"), [(ErrorCode.INVALID_APP_ID, "/appId")]),
    (
        "app id that is no id",
        set_at("appId", value="Shop Lite"),
        [(ErrorCode.INVALID_APP_ID, "/appId")],
    ),
    (
        "unknown fixture",
        set_at("fixtureId", value="shop-lite.vip-buyer"),
        [(ErrorCode.UNKNOWN_FIXTURE, "/fixtureId")],
    ),
    (
        "fixture of another app",
        set_at("fixtureId", value="todo-mvc.empty"),
        [(ErrorCode.FIXTURE_APP_MISMATCH, "/fixtureId")],
    ),
    (
        "unknown intent",
        set_at("steps", 3, "intent", value="teleport"),
        [(ErrorCode.UNSUPPORTED_INTENT, "/steps/3/intent")],
    ),
    (
        "navigate to an unknown route",
        set_at("steps", 4, "route", value="basket"),
        [(ErrorCode.UNKNOWN_ROUTE, "/steps/4/route")],
    ),
    (
        "navigate to a url, reported once",
        set_at("steps", 4, "route", value="https://shop.example/checkout"),
        [(ErrorCode.UNKNOWN_ROUTE, "/steps/4/route")],
    ),
    (
        "route_is an unknown route",
        set_at("assertions", 0, "route", value="thank-you"),
        [(ErrorCode.UNKNOWN_ROUTE, "/assertions/0/route")],
    ),
    ("fill without value", drop_at("steps", 1, "value"), [(INVALID, "/steps/1/value")]),
    (
        "navigate with a target",
        set_at("steps", 0, "target", value={"role": "link", "name": "Home"}),
        [(INVALID, "/steps/0/target")],
    ),
    ("duplicate step ids", set_at("steps", 2, "id", value="search"), [(INVALID, "/steps/2/id")]),
    ("a step id that is no string", set_at("steps", 2, "id", value=7), [(INVALID, "/steps/2/id")]),
    (
        "duplicate assertion ids",
        set_at("assertions", 1, "id", value="confirmed"),
        [(INVALID, "/assertions/1/id")],
    ),
    (
        "assertion after an unknown step",
        set_at("assertions", 1, "afterStep", value="pay-now"),
        [(INVALID, "/assertions/1/afterStep")],
    ),
    ("blank goal", set_at("goal", value="   "), [(INVALID, "/goal")]),
    (
        "no attempts",
        set_at("recovery", "maxAttempts", value=0),
        [(INVALID, "/recovery/maxAttempts")],
    ),
    (
        "too many attempts",
        set_at("recovery", "maxAttempts", value=4),
        [(INVALID, "/recovery/maxAttempts")],
    ),
    (
        "unknown assertion kind",
        set_at("assertions", 0, "kind", value="looks_nice"),
        [(INVALID, "/assertions/0/kind")],
    ),
    (
        "upload of another app's file",
        append_at(
            "steps",
            value={
                "id": "attach",
                "intent": "upload_file",
                "target": {"role": "button", "name": "Attach receipt"},
                "fileRef": "file:admin-console/users.csv",
            },
        ),
        # The fixture ships no such file, and order confirmation has no such button.
        [
            (ErrorCode.UNKNOWN_FILE_REF, "/steps/6/fileRef"),
            (ErrorCode.UNKNOWN_TARGET, "/steps/6/target"),
        ],
    ),
]


@pytest.mark.parametrize(
    ("mutate", "expected"), [pytest.param(m, e, id=name) for name, m, e in CASES]
)
def test_an_invalid_journey_is_refused_with_each_code_and_path(
    mutate: Mutation, expected: list[tuple[ErrorCode, str]]
) -> None:
    document = reference_journey()
    mutate(document)

    assert codes_and_paths(check_journey(document).problems) == expected
    with pytest.raises(AutomiumError) as refused:
        compilation_document(document)
    assert codes_and_paths(refused.value.problems) == expected


ALLOWED_CASES: list[tuple[str, Mutation, tuple[str | int, ...]]] = [
    ("unknown app", set_at("appId", value="shop-max"), corpus.app_ids()),
    ("unknown intent", set_at("steps", 3, "intent", value="teleport"), INTENTS),
    ("unknown route", set_at("steps", 4, "route", value="basket"), corpus.route_ids("shop-lite")),
    (
        "fixture of another app",
        set_at("fixtureId", value="todo-mvc.empty"),
        corpus.fixture_ids("shop-lite"),
    ),
    (
        "assertion after an unknown step",
        set_at("assertions", 1, "afterStep", value="pay-now"),
        ("open-home", "search", "submit", "add", "checkout", "pay"),
    ),
]


@pytest.mark.parametrize(
    ("mutate", "allowed"), [pytest.param(m, a, id=name) for name, m, a in ALLOWED_CASES]
)
def test_a_refusal_lists_the_values_an_agent_may_use_instead(
    mutate: Mutation, allowed: tuple[str | int, ...]
) -> None:
    document = reference_journey()
    mutate(document)

    (problem,) = check_journey(document).problems
    assert problem.allowed == allowed


def test_a_journey_with_many_defects_reports_all_of_them_in_one_pass() -> None:
    document = reference_journey()
    document["fixtureId"] = "todo-mvc.empty"
    document["goal"] = "   "
    document["steps"][0]["route"] = "basket"
    del document["steps"][1]["value"]
    document["steps"][2]["id"] = "search"
    document["steps"][3]["intent"] = "teleport"
    document["assertions"][0]["afterStep"] = "nowhere"
    document["assertions"][1]["kind"] = "looks_nice"
    document["recovery"]["maxAttempts"] = 4

    with pytest.raises(AutomiumError) as refused:
        compilation_document(document)

    assert codes_and_paths(refused.value.problems) == [
        (INVALID, "/assertions/0/afterStep"),
        (INVALID, "/assertions/1/kind"),
        (ErrorCode.FIXTURE_APP_MISMATCH, "/fixtureId"),
        (INVALID, "/goal"),
        (INVALID, "/recovery/maxAttempts"),
        (ErrorCode.UNKNOWN_ROUTE, "/steps/0/route"),
        (INVALID, "/steps/1/value"),
        (INVALID, "/steps/2/id"),
        (ErrorCode.UNSUPPORTED_INTENT, "/steps/3/intent"),
    ]
    assert codes_and_paths(check_journey(document).problems) == codes_and_paths(
        refused.value.problems
    )


@pytest.mark.parametrize("document", [None, [], "journey", 42])
def test_a_document_that_is_no_object_is_refused_at_the_root(document: object) -> None:
    assert codes_and_paths(check_journey(document).problems) == [(INVALID, "")]


def test_an_empty_object_is_refused_once_per_missing_property() -> None:
    assert codes_and_paths(check_journey({}).problems) == [
        (ErrorCode.INVALID_APP_ID, "/appId"),
        (INVALID, "/assertions"),
        (ErrorCode.UNKNOWN_FIXTURE, "/fixtureId"),
        (INVALID, "/goal"),
        (INVALID, "/id"),
        (INVALID, "/recovery"),
        (INVALID, "/steps"),
    ]


# --- properties -------------------------------------------------------------------------


PROPERTY_SETTINGS = settings(
    max_examples=examples(at_most=150), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@PROPERTY_SETTINGS
@given(valid_journeys())
def test_every_valid_journey_compiles_to_an_acyclic_graph_whose_nodes_all_reach_an_exit(
    document: Document,
) -> None:
    compilation = compilation_document(document)
    graph = compilation["graph"]

    assert graph_problems(graph) == []
    assert len(graph["nodes"]) == 3 + len(document["steps"]) + len(document["assertions"])
    assert (compilation["stepCount"], compilation["assertionCount"]) == (
        len(document["steps"]),
        len(document["assertions"]),
    )
    assert check("journey-compilation.v1", compilation) == []


@PROPERTY_SETTINGS
@given(valid_journeys())
def test_asking_for_mermaid_adds_the_drawing_of_the_same_graph_and_keeps_the_journey_ref(
    document: Document,
) -> None:
    plain = compilation_document(document)
    drawn = compilation_document({**document, "mermaid": True})

    assert "mermaid" not in plain
    assert drawn["mermaid"] == render_mermaid(drawn["graph"])
    # One line for the header, one per node and one per edge: nothing dropped or split.
    graph = drawn["graph"]
    assert drawn["mermaid"].count("\n") == 1 + len(graph["nodes"]) + len(graph["edges"])
    assert (drawn["graph"], drawn["journeyRef"]) == (plain["graph"], plain["journeyRef"])


@PROPERTY_SETTINGS
@given(valid_journeys(), st.data())
def test_an_intent_outside_the_vocabulary_is_an_unsupported_intent_at_that_step(
    document: Document, data: st.DataObject
) -> None:
    index = data.draw(st.integers(0, len(document["steps"]) - 1))
    intent = data.draw(st.text(max_size=20).filter(lambda s: s not in INTENTS))
    broken = copy.deepcopy(document)
    broken["steps"][index]["intent"] = intent

    problems = codes_and_paths(check_journey(broken).problems)

    assert (ErrorCode.UNSUPPORTED_INTENT, f"/steps/{index}/intent") in problems


@PROPERTY_SETTINGS
@given(valid_journeys())
def test_the_compiled_graph_is_the_graph_built_from_the_journey_document(
    document: Document,
) -> None:
    # Compile sends the graph as it is built from the journey: nothing added or lost.
    assert compilation_document(document)["graph"] == build_graph(document)


def test_a_duplicate_step_id_comes_before_the_route_not_reached_it_causes() -> None:
    journey = reference_journey()
    journey["steps"][4]["id"] = "open-home"  # the navigate to checkout, now a second open-home
    journey["assertions"][0].update(afterStep="open-home", route="checkout")

    with pytest.raises(AutomiumError) as refused:
        compilation_document(journey)

    assert [(p.code, p.path) for p in refused.value.problems] == [
        (ErrorCode.INVALID_INPUT, "/steps/4/id"),
        (ErrorCode.ROUTE_NOT_REACHED, "/assertions/0/route"),
    ]
