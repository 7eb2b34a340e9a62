"""Compile's names are Playwright's: in headless Chromium, ``getByRole`` with ``exact: true``
finds the button "Add to cart" for exactly the names compile accepts for it
(:data:`tests.domain.test_accessible_names.NAMES`), and for no other."""

from __future__ import annotations

import pytest

from automium.accessible_names import same_name
from tests.browser.chromium import chromium_page
from tests.domain.test_accessible_names import NAMES

pytestmark = pytest.mark.browser


def test_get_by_role_exact_finds_exactly_the_names_compile_accepts() -> None:
    with chromium_page() as page:
        page.set_content("<main><button>Add to cart</button></main>")
        found = {
            name: page.get_by_role("button", name=name, exact=True).count() == 1
            for name, _ in NAMES
        }
    assert found == {name: same_name(name, "Add to cart") for name, _ in NAMES}
    assert found == dict(NAMES)
