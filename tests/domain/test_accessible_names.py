"""One definition of white space, Playwright's, wherever a name is compared.

A target's name matches as ``getByRole`` with ``exact: true`` matches it: U+001C-U+001F
and U+0085, which Python's ``str.split()`` takes for white space, are part of the name (so
``"Add\\x1cto cart"`` is no button of the shop), while ECMAScript's white space (U+2028,
no-break space, …) collapses like a space, and zero-width spaces and soft hyphens vanish.
``tests/browser/test_names_in_chromium.py`` pins the same table to the browser.
"""

from __future__ import annotations

import pytest

from automium.accessible_names import WHITE_SPACE, normalized, same_name
from automium.compilation import compilation_document
from automium.contracts import ErrorCode
from automium.errors import AutomiumError
from tests.cases import reference_journey

# (a name written for the button "Add to cart", whether Playwright finds that button)
NAMES = (
    ("Add to cart", True),
    ("  Add \t to\ncart  ", True),
    ("Add\u00a0to\u2028cart", True),
    ("Add\u3000to\ufeffcart", True),
    ("Add to ca\u00adrt", True),
    ("Add to\u200b cart", True),
    ("Add\x1cto cart", False),
    ("Add\x1dto cart", False),
    ("Add\x1eto cart", False),
    ("Add\x1fto cart", False),
    ("Add\x85to cart", False),
    ("Add\u180eto cart", False),  # Mongolian vowel separator: no longer white space
    ("add to cart", False),
)


@pytest.mark.parametrize(("name", "found"), NAMES)
def test_a_name_matches_as_playwright_matches_it(name: str, found: bool) -> None:
    assert same_name(name, "Add to cart") is found


@pytest.mark.parametrize(("name", "found"), NAMES)
def test_compile_accepts_exactly_the_names_playwright_finds(name: str, found: bool) -> None:
    journey = reference_journey()
    journey["steps"][3]["target"] = {"role": "button", "name": name, "nth": 0}
    if found:
        assert compilation_document(journey)["journeyRef"]
        return
    with pytest.raises(AutomiumError) as refused:
        compilation_document(journey)
    assert [(p.code, p.path) for p in refused.value.problems[:1]] == [
        (ErrorCode.UNKNOWN_TARGET, "/steps/3/target")
    ]


def test_white_space_is_ecmascripts_and_nothing_else() -> None:
    python_only = [c for c in map(chr, range(0x3001)) if c.isspace() and c not in WHITE_SPACE]
    assert python_only == ["\x1c", "\x1d", "\x1e", "\x1f", "\x85"]
    assert normalized("\u200b a \u00ad ") == "a"
