"""The built-in planners' decisions on a page snapshot, without a browser: a select's
options are chosen on the select, and the scripted planner decides a guard on the page it
is shown."""

from __future__ import annotations

from typing import Any

import pytest

from automium.planning.builtin import HeuristicPlanner, RandomPlanner, ScriptedPlanner, actionable

Json = dict[str, Any]


def node(ref: str, role: str, name: str, *children: Json) -> Json:
    return {"ref": ref, "role": role, "name": name, "children": list(children)}


ROLE = node(
    "e2",
    "combobox",
    "Role",
    node("e3", "option", "Viewer"),
    node("e4", "option", "Editor"),
)
PAGE = node(
    "e1",
    "main",
    "",
    ROLE,
    node("e5", "listbox", "Teams", node("e6", "option", "Support")),
    node("e7", "button", "Save"),
)


def request(goal: str, root: Json = PAGE, route: str = "users") -> Json:
    snapshot = {"routeId": route, "root": root}
    return {"goal": goal, "snapshot": snapshot, "history": [], "runId": "run-1.1"}


def test_a_selects_options_are_not_targets_of_their_own_but_a_listboxs_are() -> None:
    names = [n["name"] for n in actionable(request("x")["snapshot"])]

    assert names == ["Role", "Support", "Save"]


def test_the_random_planner_chooses_a_selects_option_on_the_select() -> None:
    planner = RandomPlanner(3)
    only_the_select = node("e1", "main", "", ROLE)
    decisions = [planner.decide(request("x", only_the_select)) for _ in range(20)]

    chosen = [d for d in decisions if d["kind"] == "act"]
    assert chosen
    assert {(d["intent"], d["target"]["ref"]) for d in chosen} == {("select_option", "e2")}
    assert {d["value"] for d in chosen} <= {"Viewer", "Editor"}


def test_the_heuristic_planner_selects_the_option_the_goal_names() -> None:
    decision = HeuristicPlanner().decide(request("Make Dana an editor"))

    assert (decision["intent"], decision["target"], decision["value"]) == (
        "select_option",
        {"ref": "e2"},
        "Editor",
    )


@pytest.mark.parametrize(("shown", "first"), [(True, "open-import"), (False, "filter")])
def test_the_scripted_planner_skips_a_branch_whose_guard_the_page_fails(
    shown: bool, first: str
) -> None:
    guard = {"kind": "visible", "target": {"role": "button", "name": "Import users"}}
    steps = [
        {"id": "open-import", "intent": "click", "target": guard["target"], "when": guard},
        {"id": "close", "intent": "press_key", "key": "Escape", "when": guard},
        {
            "id": "filter",
            "intent": "fill",
            "target": {"role": "textbox", "name": "F"},
            "value": "D",
        },
    ]
    page = node("e1", "main", "", *([node("e2", "button", "Import users")] if shown else []))
    planner = ScriptedPlanner()
    planner.start({"steps": steps})

    decision = planner.decide(request("x", page))

    assert decision["rationale"] == f"step {first}"
    assert "when" not in decision
