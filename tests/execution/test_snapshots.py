"""Playwright's ARIA snapshot text read as a semantic-snapshot.v1 tree."""

from __future__ import annotations

from automium.execution.snapshots import parse_aria, semantic_snapshot
from automium.validation import check

ARIA = """- banner:
  - heading "todos" [level=1]
  - textbox "What needs to be done?": Buy milk
- 'button "Say \\"hi\\": now"'
- list "Filters":
  - listitem:
    - link "All":
      - /url: /
- checkbox "Toggle Todo" [checked]
- status "Items left": 2 items left
- text: plain words
- textbox "Password": hunter2
"""


def test_an_aria_snapshot_becomes_a_semantic_snapshot_with_refs_states_values_and_no_secret() -> (
    None
):
    nodes = parse_aria(ARIA)
    document = semantic_snapshot("all", {"width": 1280, "height": 720}, "todos", nodes, ["hunter2"])
    assert check("semantic-snapshot.v1", document, {}) == []
    root = document["root"]
    banner, button, filters, checkbox, status, text, password = root["children"]
    assert banner["children"][1] == {
        "ref": "e3",
        "role": "textbox",
        "name": "What needs to be done?",
        "value": "Buy milk",
    }
    assert (button["role"], button["name"]) == ("button", 'Say "hi": now')
    assert filters["children"][0]["children"][0]["name"] == "All"
    assert checkbox["states"] == ["checked"]
    assert status["children"] == [{"ref": "e10", "role": "text", "name": "2 items left"}]
    assert text["name"] == "plain words"
    assert password["value"] == "•••••••"
