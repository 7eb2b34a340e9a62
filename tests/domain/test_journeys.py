"""Journey validation and compilation: the corpus compiles, every defect is reported once
with its code and path, and every valid journey compiles to an acyclic graph."""

from __future__ import annotations

import copy
from graphlib import TopologicalSorter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from syrupy.assertion import SnapshotAssertion

from automium import corpus
from automium.contracts import ErrorCode, Intent, Journey, JourneyGraph, NodeType, to_document
from automium.errors import AutomiumError
from automium.journeys import build_graph, compile_journey, render_mermaid, validate_journey
from automium.validation import check, to_model
from tests.cases import WORKED_EXAMPLE, reference_journey
from tests.conftest import examples
from tests.mutations import Document, Mutation, append_at, drop_at, set_at

INTENTS = tuple(i.value for i in Intent)
REFERENCE_IDS = [j.id for j in corpus.reference_journeys()]


def codes_and_paths(problems: tuple[Any, ...]) -> list[tuple[ErrorCode, str]]:
    return [(p.code, p.path) for p in problems]


def graph_problems(graph: JourneyGraph) -> list[str]:
    """What is wrong with a graph's shape; empty when it has one entry, reaches an exit
    from every node, and has no cycle."""
    problems: list[str] = []
    ids = [n.id for n in graph.nodes]
    entries = [n.id for n in graph.nodes if n.type is NodeType.ENTRY]
    if entries != [graph.entry]:
        problems.append(f"entry nodes {entries}, declared entry {graph.entry!r}")
    exits = {e.root for e in graph.exits}
    successors: dict[str, set[str]] = {i: set() for i in ids}
    for edge in graph.edges:
        successors[edge.from_].add(edge.to)
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


# Each compilation is snapshotted once, as the success of automium_compile_journey
# (tests/server/test_tools.py); here its shape is checked.
@pytest.mark.parametrize("journey_id", REFERENCE_IDS)
def test_every_reference_journey_compiles_to_one_entry_and_no_cycle(journey_id: str) -> None:
    assert graph_problems(compile_journey(reference_journey(journey_id)).graph) == []


@pytest.mark.parametrize("journey_id", REFERENCE_IDS)
def test_every_reference_journey_renders_to_its_snapshot_mermaid(
    journey_id: str, snapshot: SnapshotAssertion
) -> None:
    graph = compile_journey(reference_journey(journey_id)).graph

    assert render_mermaid(graph) == snapshot


def test_the_worked_example_compiles_to_a_straight_line_with_one_failure_exit() -> None:
    compilation = compile_journey(reference_journey())
    graph = compilation.graph

    steps = ["open-home", "search", "submit", "add", "checkout", "pay"]
    assert (compilation.journey_id, compilation.step_count, compilation.assertion_count) == (
        WORKED_EXAMPLE,
        6,
        2,
    )
    assert compilation.corpus_version == corpus.CORPUS_VERSION
    assert graph.entry == "entry"
    assert [e.root for e in graph.exits] == ["pass", "fail"]
    assert [n.id for n in graph.nodes] == [
        "entry",
        *(f"step:{s}" for s in steps),
        "assert:confirmed",
        "assert:thanks",
        "pass",
        "fail",
    ]
    assert len(graph.edges) == 1 + 2 * 8
    work = [n.id for n in graph.nodes[1:-2]]
    assert [(e.from_, e.to, e.on.value) for e in graph.edges] == [
        ("entry", "step:open-home", "start"),
        *(
            edge
            for node, following in zip(work, [*work[1:], "pass"], strict=True)
            for edge in ((node, following, "success"), (node, "fail", "exhausted"))
        ),
    ]
    assert all(n.retry_budget == 2 for n in graph.nodes[1:-2])


def test_a_journey_that_marks_blocked_exits_to_blocked_instead_of_fail() -> None:
    document = reference_journey()
    document["recovery"]["onExhausted"] = "mark_blocked"

    graph = compile_journey(document).graph

    assert [e.root for e in graph.exits] == ["pass", "blocked"]
    assert graph.nodes[-1].type is NodeType.BLOCKED
    assert {e.to for e in graph.edges if e.on.value == "exhausted"} == {"blocked"}


def test_compiling_the_same_journey_twice_gives_equal_documents() -> None:
    first = to_document(compile_journey(reference_journey()))
    second = to_document(compile_journey(reference_journey()))

    assert first == second


def test_the_mermaid_text_escapes_quotes_hashes_and_line_breaks_in_labels() -> None:
    document = reference_journey()
    document["steps"][1]["target"]["name"] = 'Se"arch\nbox'
    document["steps"][1]["value"] = "#1 mug"

    text = render_mermaid(compile_journey(document).graph)

    assert '    n2["fill Se#quot;arch box = #quot;#35;1 mug#quot;"]\n' in text
    assert text.startswith("flowchart TD\n")
    assert text.endswith("\n")


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
        [(INVALID, "/steps/6/fileRef")],
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

    assert codes_and_paths(validate_journey(document)) == expected
    with pytest.raises(AutomiumError) as refused:
        compile_journey(document)
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

    (problem,) = validate_journey(document)
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
        compile_journey(document)

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
    assert codes_and_paths(validate_journey(document)) == codes_and_paths(refused.value.problems)


@pytest.mark.parametrize("document", [None, [], "journey", 42])
def test_a_document_that_is_no_object_is_refused_at_the_root(document: object) -> None:
    assert codes_and_paths(validate_journey(document)) == [(INVALID, "")]


def test_an_empty_object_is_refused_once_per_missing_property() -> None:
    assert codes_and_paths(validate_journey({})) == [
        (ErrorCode.INVALID_APP_ID, "/appId"),
        (INVALID, "/assertions"),
        (ErrorCode.UNKNOWN_FIXTURE, "/fixtureId"),
        (INVALID, "/goal"),
        (INVALID, "/id"),
        (INVALID, "/recovery"),
        (INVALID, "/steps"),
    ]


# --- properties -------------------------------------------------------------------------

_TEXT = st.text(st.sampled_from('abcXYZ019 "#<>&-'), min_size=1, max_size=24).filter(
    lambda s: s.strip() != ""
)
_ROLES = st.sampled_from(["button", "link", "textbox", "checkbox", "combobox", "heading"])
_TARGETS = st.one_of(
    st.fixed_dictionaries({"role": _ROLES, "name": _TEXT}, optional={"nth": st.integers(0, 999)}),
    st.builds(lambda n: {"ref": f"e{n}"}, st.integers(0, 999_999)),
)
_KEYS = st.sampled_from(["Enter", "Escape", "Tab", "ArrowDown", "a", "7", "F5", "PageUp"])
_IDS = st.from_regex(r"[a-z0-9][a-z0-9._-]{0,12}", fullmatch=True)


def _step_bodies(app_id: str) -> dict[str, st.SearchStrategy[Document]]:
    routes = st.sampled_from(corpus.route_ids(app_id))
    files = st.from_regex(r"[A-Za-z0-9._-]{1,20}", fullmatch=True).map(
        lambda name: f"file:{app_id}/{name}"
    )
    with_target = st.fixed_dictionaries({"target": _TARGETS})
    return {
        "navigate": st.fixed_dictionaries({"route": routes}),
        "click": with_target,
        "fill": st.fixed_dictionaries({"target": _TARGETS, "value": _TEXT}),
        "clear": with_target,
        "select_option": st.fixed_dictionaries({"target": _TARGETS, "value": _TEXT}),
        "check": with_target,
        "uncheck": with_target,
        "press_key": st.fixed_dictionaries({"key": _KEYS}, optional={"target": _TARGETS}),
        "hover": with_target,
        "scroll": st.fixed_dictionaries(
            {"direction": st.sampled_from(["up", "down", "top", "bottom"])},
            optional={"target": _TARGETS},
        ),
        "wait_for": st.fixed_dictionaries(
            {"target": _TARGETS},
            optional={
                "state": st.sampled_from(["visible", "hidden", "enabled"]),
                "timeoutMs": st.integers(100, 30_000),
            },
        ),
        "upload_file": st.fixed_dictionaries({"target": _TARGETS, "fileRef": files}),
        "go_back": st.just({}),
    }


def _assertion_bodies(app_id: str) -> dict[str, st.SearchStrategy[Document]]:
    with_target = st.fixed_dictionaries({"target": _TARGETS})
    expected = st.fixed_dictionaries({"target": _TARGETS, "expected": st.text(max_size=30)})
    return {
        "visible": with_target,
        "hidden": with_target,
        "text_equals": expected,
        "text_contains": expected,
        "value_equals": expected,
        "route_is": st.fixed_dictionaries({"route": st.sampled_from(corpus.route_ids(app_id))}),
        "count_equals": st.fixed_dictionaries(
            {"target": _TARGETS, "count": st.integers(0, 10_000)}
        ),
    }


@st.composite
def valid_journeys(draw: st.DrawFn) -> Document:
    fixture = draw(st.sampled_from(corpus.fixtures()))
    app_id = fixture.app_id
    step_bodies = _step_bodies(app_id)
    assertion_bodies = _assertion_bodies(app_id)
    # A numeric suffix after the last "-" keeps generated ids unique.
    step_ids = [f"{draw(_IDS)}-{i}" for i in range(draw(st.integers(1, 30)))]
    steps = []
    for step_id in step_ids:
        intent = draw(st.sampled_from(INTENTS))
        steps.append({"id": step_id, "intent": intent, **draw(step_bodies[intent])})
    assertions = []
    for i in range(draw(st.integers(1, 10))):
        kind = draw(st.sampled_from(sorted(assertion_bodies)))
        assertions.append(
            {
                "id": f"{draw(_IDS)}-{i}",
                "kind": kind,
                "afterStep": draw(st.sampled_from(step_ids)),
                **draw(assertion_bodies[kind]),
            }
        )
    recovery = {
        "maxAttempts": draw(st.integers(1, 3)),
        "strategies": draw(
            st.lists(
                st.sampled_from(
                    ["retry_step", "refresh_snapshot", "restart_from_route", "dismiss_dialog"]
                ),
                min_size=1,
                max_size=4,
                unique=True,
            )
        ),
        "onExhausted": draw(st.sampled_from(["fail_run", "mark_blocked"])),
    }
    return {
        "id": draw(_IDS),
        "appId": app_id,
        "fixtureId": fixture.id,
        "goal": draw(_TEXT),
        "steps": steps,
        "assertions": assertions,
        "recovery": recovery,
    }


PROPERTY_SETTINGS = settings(
    max_examples=examples(at_most=150), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@PROPERTY_SETTINGS
@given(valid_journeys())
def test_every_valid_journey_compiles_to_an_acyclic_graph_whose_nodes_all_reach_an_exit(
    document: Document,
) -> None:
    compilation = compile_journey(document)
    graph = compilation.graph

    assert graph_problems(graph) == []
    assert len(graph.nodes) == 3 + len(document["steps"]) + len(document["assertions"])
    assert (compilation.step_count, compilation.assertion_count) == (
        len(document["steps"]),
        len(document["assertions"]),
    )
    assert check("journey-compilation.v1", to_document(compilation)) == []
    assert render_mermaid(graph).count("\n") == 1 + len(graph.nodes) + len(graph.edges)


@PROPERTY_SETTINGS
@given(valid_journeys(), st.data())
def test_an_intent_outside_the_vocabulary_is_an_unsupported_intent_at_that_step(
    document: Document, data: st.DataObject
) -> None:
    index = data.draw(st.integers(0, len(document["steps"]) - 1))
    intent = data.draw(st.text(max_size=20).filter(lambda s: s not in INTENTS))
    broken = copy.deepcopy(document)
    broken["steps"][index]["intent"] = intent

    problems = codes_and_paths(validate_journey(broken))

    assert (ErrorCode.UNSUPPORTED_INTENT, f"/steps/{index}/intent") in problems


@PROPERTY_SETTINGS
@given(valid_journeys())
def test_building_the_graph_from_the_model_matches_compiling_the_document(
    document: Document,
) -> None:
    assert build_graph(to_model(Journey, document)) == compile_journey(document).graph
