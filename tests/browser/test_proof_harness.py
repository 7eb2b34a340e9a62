"""The proof can fail: a page that differs from its model, a hidden node that shows, or a
control the model lacks, each fails the check that should catch it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from automium.corpus import get_fixture
from automium.corpus.pages import View, page
from automium.execution import aria
from tests.browser.proof import Session, prove_hidden, prove_no_extra_controls, tree


def view_of(app_id: str, route_id: str, fixture_id: str, entity: str | None = None) -> View:
    return page(app_id, route_id).view(get_fixture(fixture_id, app_id), entity)


@pytest.fixture(scope="module")
def three_items(chromium_browser: Browser) -> Iterator[Session]:
    session = Session.open(chromium_browser, "todo-mvc.three-items")
    yield session
    session.close()


def test_todo_mvcs_model_renders_as_the_template_playwright_checks() -> None:
    rendered = aria.template(aria.Rendering(view_of("todo-mvc", "active", "todo-mvc.three-items")))

    assert rendered.splitlines()[:9] == [
        "- banner:",
        '  - heading "todos"',
        '  - textbox "What needs to be done?"',
        "- main:",
        '  - checkbox "Mark all as complete" [checked=false]',
        "  - list:",
        "    - listitem:",
        "      - checkbox /.+/ [checked=false]",
        "      - text: /.+/",
    ]


def test_a_tables_rows_go_in_row_groups_and_yaml_is_quoted_where_it_would_misread() -> None:
    rendered = aria.template(
        aria.Rendering(view_of("shop-lite", "orders", "shop-lite.returning-buyer"))
    )

    assert '    - rowgroup:\n      - row:\n        - columnheader "Order"' in rendered
    assert "        - 'cell \"Order #1037\"'" in rendered


def test_a_page_showing_less_than_its_model_fails_with_playwrights_diff(
    three_items: Session,
) -> None:
    three_items.fresh("/completed")
    claimed = aria.template(aria.Rendering(view_of("todo-mvc", "all", "todo-mvc.three-items")))

    with pytest.raises(AssertionError, match="Locator expected to match Aria snapshot"):
        expect(three_items.page.locator("body")).to_match_aria_snapshot(claimed, timeout=200)


def test_a_node_the_model_hides_fails_when_the_page_shows_it(three_items: Session) -> None:
    three_items.fresh("/")
    empty = view_of("todo-mvc", "all", "todo-mvc.empty")

    with pytest.raises(AssertionError, match=r"main is \[hidden\] until revealed"):
        prove_hidden(three_items, empty, timeout=200)


def test_a_control_the_model_does_not_have_fails(three_items: Session) -> None:
    three_items.fresh("/")
    three_items.page.evaluate(
        "() => document.querySelector('main').append(Object.assign("
        "document.createElement('button'), {textContent: 'Undo'}))"
    )
    snapshot = tree(three_items.page.locator("body").aria_snapshot())
    rendering = aria.Rendering(view_of("todo-mvc", "all", "todo-mvc.three-items"))

    with pytest.raises(AssertionError, match=r"does not have: \['button \"Undo\"'\]"):
        prove_no_extra_controls(snapshot, rendering)
