"""The draft_journey prompt shows an agent the pages its fixture reaches, in the compact
ARIA-snapshot form, with behaviour marked, and stays small enough for any context window."""

from __future__ import annotations

import pytest

from automium import corpus
from automium.guidance import find

PROMPT_BUDGET = 16 * 1024  # bytes of the rendered text, for the largest fixture
GOAL = "Complete the main task of this app and check that the page confirms it"
FIXTURE_IDS = corpus.fixture_ids()


def prompt(fixture_id: str) -> str:
    app_id = fixture_id.split(".", maxsplit=1)[0]
    return find("draft_journey").render({"appId": app_id, "fixtureId": fixture_id, "goal": GOAL})


def route_block(text: str, route_id: str) -> list[str]:
    """The ARIA text lines of one route in the prompt, indentation removed."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"route {route_id} "))
    end = next((i for i in range(start + 1, len(lines)) if not lines[i].strip()), len(lines))
    return [line.strip() for line in lines[start + 1 : end]]


@pytest.mark.parametrize("fixture_id", FIXTURE_IDS)
def test_the_draft_journey_prompt_of_every_fixture_is_under_16_kb(fixture_id: str) -> None:
    assert len(prompt(fixture_id).encode("utf-8")) < PROMPT_BUDGET


@pytest.mark.parametrize("fixture_id", FIXTURE_IDS)
def test_the_prompt_shows_every_route_the_fixture_reaches_and_where_the_others_land(
    fixture_id: str,
) -> None:
    fixture = next(f for f in corpus.fixtures() if f.id == fixture_id)
    redirects = {r.route: r.to for r in fixture.redirects}
    text = prompt(fixture_id)

    for route_id in corpus.route_ids(fixture.app_id):
        if route_id in redirects:
            assert f"route {route_id}: opening it lands on {redirects[route_id]}" in text
        else:
            assert route_block(text, route_id), f"no page shown for {route_id}"


def test_the_prompt_marks_what_activating_an_element_does_and_which_fields_are_secret() -> None:
    text = prompt("shop-lite.returning-buyer")

    assert '- button "Place order" → order-confirmation' in route_block(text, "checkout")
    assert '- textbox "Password" [required] [secret: password]' in route_block(text, "login")


def test_repeated_rows_collapse_into_one_line_that_names_each_row() -> None:
    rows = ("Buy milk", "Walk the dog", "Pay rent")
    block = route_block(prompt("todo-mvc.three-items"), "all")

    collapsed = [line for line in block if "× 3" in line]
    assert len(collapsed) == 1
    assert all(row in collapsed[0] for row in rows)
    # The rows are not written out one by one as well.
    assert not any(row in line for line in block if line not in collapsed for row in rows)


def test_the_empty_fixture_shows_no_rows_to_collapse() -> None:
    block = route_block(prompt("todo-mvc.empty"), "all")

    assert not any("×" in line for line in block)
