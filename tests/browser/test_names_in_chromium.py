"""Compile's names are Playwright's: in headless Chromium, ``getByRole`` with ``exact: true``
finds the button "Add to cart" for exactly the names compile accepts for it
(:data:`tests.domain.test_accessible_names.NAMES`), and for no other."""

from __future__ import annotations

from playwright.sync_api import Browser

from automium.accessible_names import same_name
from tests.domain.test_accessible_names import NAMES


def test_get_by_role_exact_finds_exactly_the_names_compile_accepts(
    chromium_browser: Browser,
) -> None:
    page = chromium_browser.new_page()
    try:
        page.set_content("<main><button>Add to cart</button></main>")
        found = {
            name: page.get_by_role("button", name=name, exact=True).count() == 1
            for name, _ in NAMES
        }
    finally:
        page.close()
    assert found == {name: same_name(name, "Add to cart") for name, _ in NAMES}
    assert found == dict(NAMES)
