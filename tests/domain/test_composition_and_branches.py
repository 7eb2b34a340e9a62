"""Journeys that compose (``uses``) and branch (a step's ``when``): compile's refusals, each
with its code and path, the branching graph and its rules, and what export writes."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from automium.compilation import compilation_document
from automium.contracts import ErrorCode, WarningCode
from automium.errors import AutomiumError
from automium.export import export_journey
from automium.journeys import composition, reference_journey
from automium.journeys.graph_rules import graph_problems
from automium.journeys.mermaid import render_mermaid
from automium.replay.summary import branches_taken
from tests.cases import reference_journey as reference_document

LOCKED = {"kind": "visible", "target": {"role": "alert", "name": "Account locked"}}


def report(**changes: Any) -> dict[str, Any]:
    """The agent's monthly report, starting where the agent's sign-in ends."""
    document = copy.deepcopy(reference_document("helpdesk.agent-reviews-monthly-report"))
    document.update(changes)
    return document


def refusal(document: dict[str, Any]) -> list[tuple[str, str]]:
    with pytest.raises(AutomiumError) as raised:
        compilation_document(document)
    return [(p.code.value, p.path) for p in raised.value.problems]


def warnings(document: dict[str, Any]) -> list[tuple[str, str]]:
    return [(w["code"].value, w["path"]) for w in compilation_document(document)["warnings"]]


# --- uses ------------------------------------------------------------------------------------


def test_a_journey_that_uses_another_runs_its_steps_first_and_draws_them_as_their_own_part() -> (
    None
):
    compiled = compilation_document(report(mermaid=True))
    graph = compiled["graph"]

    assert graph["uses"] == ["helpdesk.agent-signs-in"]
    parts = [n.get("part") for n in graph["nodes"] if n["type"] in ("step", "assertion")]
    assert parts == [*["helpdesk.agent-signs-in"] * 6, *[None] * 6]
    assert compiled["stepCount"] == 7
    assert '    subgraph uses_2["uses helpdesk.agent-signs-in"]' in compiled["mermaid"]


def test_the_steps_after_the_prefix_are_checked_on_the_page_it_leaves_off_at() -> None:
    # The sign-in lands on the inbox: a journey may go on there without navigating...
    on_inbox = report(
        steps=[
            {"id": "open-ticket", "intent": "click", "target": {"role": "link", "name": "Reports"}}
        ],
        assertions=[
            {"id": "on-reports", "kind": "route_is", "route": "reports", "afterStep": "open-ticket"}
        ],
    )
    assert warnings(on_inbox) == []
    # ...and what the inbox lacks is refused at the journey's own step.
    on_inbox["steps"][0]["target"]["name"] = "Download CSV"
    assert refusal(on_inbox) == [("unknown_target", "/steps/0/target")]


@pytest.mark.parametrize(
    ("uses", "code"),
    [
        ("helpdesk.no-such-journey", "unknown_journey"),
        ("shop-lite.buy-one-mug", "journey_app_mismatch"),
        ("helpdesk.customer-submits-ticket", "journey_fixture_mismatch"),
        ("helpdesk.agent-reviews-monthly-report", "uses_cycle"),
    ],
)
def test_uses_is_refused_at_its_path_with_a_code_of_its_own(uses: str, code: str) -> None:
    assert refusal(report(uses=uses)) == [(code, "/uses")]


def test_a_chain_of_uses_deeper_than_the_limit_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    sign_in = reference_document("helpdesk.agent-signs-in")
    chain = {
        f"helpdesk.link-{i}": {
            **sign_in,
            "id": f"helpdesk.link-{i}",
            "uses": f"helpdesk.link-{i + 1}",
        }
        for i in range(composition.MAX_USES_DEPTH + 1)
    }
    monkeypatch.setattr(composition, "_reference", chain.get)

    assert refusal(report(uses="helpdesk.link-0")) == [("uses_too_deep", "/uses")]


def test_a_cycle_through_other_journeys_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    sign_in = reference_document("helpdesk.agent-signs-in")
    loop = {
        "helpdesk.a": {**sign_in, "id": "helpdesk.a", "uses": "helpdesk.b"},
        "helpdesk.b": {**sign_in, "id": "helpdesk.b", "uses": "helpdesk.a"},
    }
    monkeypatch.setattr(composition, "_reference", loop.get)

    with pytest.raises(AutomiumError) as raised:
        compilation_document(report(uses="helpdesk.a"))
    (problem,) = raised.value.problems
    assert (problem.code, problem.path) == (ErrorCode.USES_CYCLE, "/uses")
    assert "helpdesk.a -> helpdesk.b -> helpdesk.a" in problem.message


def test_an_id_the_prefix_already_uses_is_refused_where_the_journey_writes_it() -> None:
    clash = report()
    clash["steps"][0]["id"] = "sign-in"
    clash["assertions"][0]["afterStep"] = "sign-in"

    assert refusal(clash) == [("invalid_input", "/steps/0/id")]


# --- guards ----------------------------------------------------------------------------------


def explain_lock(fixture: str = "bank-sandbox.locked-account", **guard: Any) -> dict[str, Any]:
    document = copy.deepcopy(reference_document("bank-sandbox.explain-lock-when-locked"))
    document["fixtureId"] = fixture
    if guard:
        document["steps"][1]["when"] = guard
    return document


@pytest.mark.parametrize(
    ("fixture", "taken", "other"),
    [
        ("bank-sandbox.locked-account", "holds", "bank-sandbox.two-accounts: fails"),
        ("bank-sandbox.two-accounts", "fails", "bank-sandbox.locked-account: holds"),
    ],
)
def test_a_guard_the_fixture_decides_says_which_branch_each_fixture_takes(
    fixture: str, taken: str, other: str
) -> None:
    graph = compilation_document(explain_lock(fixture))["graph"]

    (guard,) = [n for n in graph["nodes"] if n["type"] == "guard"]
    assert guard["id"] == "guard:why"
    assert guard["modelBranch"] == taken
    assert guard["label"] == f"if visible Account locked ({fixture}: {taken}; {other})"
    assert [(e["on"], e["to"]) for e in graph["edges"] if e["from"] == "guard:why"] == [
        ("holds", "step:why"),
        ("fails", "step:statements"),
    ]
    assert graph_problems(graph) == []


def test_the_conditional_edges_carry_the_guard_in_words_in_the_mermaid_drawing() -> None:
    drawing = compilation_document({**explain_lock(), "mermaid": True})["mermaid"]

    assert '    n2{{"if visible Account locked' in drawing
    assert '    n2 -->|"holds: visible Account locked"| n3' in drawing
    assert '    n2 -->|"fails: not visible Account locked"| n5' in drawing


def test_the_branch_not_taken_is_checked_as_a_fixture_that_takes_it_sees_the_page() -> None:
    # An open account skips the branch; the locked one, which takes it, has no such button.
    document = explain_lock("bank-sandbox.two-accounts")
    document["steps"][1]["target"]["name"] = "Unlock my account"

    with pytest.raises(AutomiumError) as raised:
        compilation_document(document)
    (problem,) = raised.value.problems
    assert (problem.code, problem.path) == (ErrorCode.UNKNOWN_TARGET, "/steps/1/target")
    assert problem.message.startswith(
        "on the branch where the guard at /steps/1/when holds "
        "(as bank-sandbox.locked-account sees the page): "
    )


def test_a_branch_no_fixture_takes_is_a_warning_of_its_own() -> None:
    always = explain_lock(kind="visible", target={"role": "heading", "name": "Your accounts"})

    assert warnings(always) == [(WarningCode.UNREACHABLE_BRANCH.value, "/steps/1/when")]


@pytest.mark.parametrize(
    ("guard", "where"),
    [
        (
            {"kind": "visible", "target": {"role": "alert", "name": "Account frozen"}},
            "/steps/1/when/target",
        ),
        ({"kind": "visible", "target": {"ref": "e12"}}, "/steps/1/when/target"),
        ({"kind": "visible"}, "/steps/1/when"),
        (
            {"kind": "text_contains", "target": {"role": "alert", "name": "Account locked"}},
            "/steps/1/when",
        ),
        ({"kind": "route_is"}, "/steps/1/when"),
    ],
)
def test_a_guard_that_could_never_be_asked_is_refused_at_its_path(
    guard: dict[str, Any], where: str
) -> None:
    assert where in [path for _, path in refusal(explain_lock(**guard))]


def test_an_unknown_guard_kind_is_refused_by_the_contract() -> None:
    assert refusal(explain_lock(kind="count_equals", target=LOCKED["target"])) == [
        ("invalid_input", "/steps/1/when/kind")
    ]


# --- graph rules -----------------------------------------------------------------------------


def _graph() -> dict[str, Any]:
    return copy.deepcopy(compilation_document(explain_lock())["graph"])


def test_every_reference_journeys_graph_keeps_the_graph_rules() -> None:
    from automium.journeys import reference_journeys  # noqa: PLC0415

    for journey_id in reference_journeys():
        graph = compilation_document(reference_document(journey_id))["graph"]
        assert graph_problems(graph) == [], journey_id


def test_a_second_entry_breaks_the_one_entry_rule() -> None:
    graph = _graph()
    graph["nodes"].append({"id": "step:again", "type": "entry", "label": "again"})

    assert next((p.code, p.path) for p in graph_problems(graph)) == (
        ErrorCode.GRAPH_ENTRY,
        f"/graph/nodes/{len(graph['nodes']) - 1}",
    )


def test_an_edge_back_into_the_entry_breaks_the_one_entry_rule() -> None:
    graph = _graph()
    graph["edges"].append({"from": "step:why", "to": "entry", "on": "success"})

    found = [(p.code, p.path) for p in graph_problems(graph)]
    assert (ErrorCode.GRAPH_ENTRY, f"/graph/edges/{len(graph['edges']) - 1}") in found


def test_a_graph_without_an_exit_breaks_the_exit_rule() -> None:
    graph = _graph()
    graph["exits"] = ["step:why"]

    assert [(p.code, p.path) for p in graph_problems(graph)] == [
        (ErrorCode.GRAPH_NO_EXIT, "/graph/exits")
    ]


def test_a_node_that_reaches_no_exit_breaks_the_exit_rule() -> None:
    graph = _graph()
    graph["nodes"].insert(1, {"id": "step:stray", "type": "step", "label": "stray"})

    assert [(p.code, p.path) for p in graph_problems(graph)] == [
        (ErrorCode.GRAPH_NO_EXIT, "/graph/nodes/1")
    ]


def test_a_back_edge_breaks_the_no_cycle_rule() -> None:
    graph = _graph()
    graph["edges"].append({"from": "step:statements", "to": "guard:why", "on": "success"})

    assert [(p.code, p.path) for p in graph_problems(graph)] == [
        (ErrorCode.GRAPH_CYCLE, f"/graph/edges/{len(graph['edges']) - 1}")
    ]


def test_mermaid_draws_a_graph_without_a_prefix_or_guard_as_before() -> None:
    graph = compilation_document(reference_document("todo-mvc.add-two-todos"))["graph"]

    assert "subgraph" not in render_mermaid(graph)
    assert "holds" not in render_mermaid(graph)


# --- export and replay -----------------------------------------------------------------------


def test_export_writes_the_prefix_as_a_setup_and_a_guard_as_an_if_in_both_formats() -> None:
    ts, py = (f.text for f in export_journey(report(), ["ts", "py"]))
    assert "test.beforeEach(async ({ page }) => {" in ts
    assert "@pytest.fixture\ndef after_helpdesk_agent_signs_in(page: Page) -> Page:" in py
    assert "(after_helpdesk_agent_signs_in: Page) -> None:" in py

    ts, py = (f.text for f in export_journey(explain_lock(), ["ts", "py"]))
    locator = "getByRole('alert', { name: 'Account locked', exact: true }).first()"
    assert f"  if (await page.{locator}.isVisible()) {{" in ts
    assert (
        '    if page.get_by_role("alert", name="Account locked", exact=True).first.is_visible():'
        in py
    )


def test_the_replay_summary_names_each_branch_a_run_took() -> None:
    from automium.contracts import ReplayEvent  # noqa: PLC0415

    def event(seq: int, kind: str, step: str, **payload: Any) -> ReplayEvent:
        return ReplayEvent.model_validate(
            {
                "schemaVersion": "automium.replay-event/v1",
                "runId": "run-1",
                "seq": seq,
                "offsetMs": seq,
                "lane": "executor",
                "type": kind,
                "stepId": step,
                "payload": payload,
            }
        )

    events = [
        event(1, "branch.taken", "why", guard="visible Account locked", branch="fails", steps=1),
        event(0, "action.performed", "open-accounts", intent="navigate", attempt=1),
    ]
    assert branches_taken(events) == [{"stepId": "why", "branch": "fails"}]
    assert reference_journey("bank-sandbox.explain-lock-when-locked").prefix is None


def test_the_default_compile_answer_says_what_it_starts_from_and_which_branch_each_takes() -> None:
    from automium.capabilities import find  # noqa: PLC0415
    from automium.detail import shaped  # noqa: PLC0415

    def summary(document: dict[str, Any]) -> dict[str, Any]:
        _, answer = find("automium_compile_journey").answer(document)
        summary: dict[str, Any] = shaped("automium_compile_journey", document, answer)[
            "graphSummary"
        ]
        return summary

    assert summary(report())["uses"] == ["helpdesk.agent-signs-in"]
    assert summary(explain_lock())["guards"] == [
        "if visible Account locked "
        "(bank-sandbox.locked-account: holds; bank-sandbox.two-accounts: fails)"
    ]
    assert "guards" not in summary(report())
