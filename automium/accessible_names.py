"""Accessible names as Playwright compares them: the one definition of white space that
Automium uses wherever it compares a name (page models, targets, text assertions, options).

Playwright normalises both the element's accessible name and the name given to
``getByRole`` the same way (``normalizeWhiteSpace`` in its injected script): zero-width
spaces (U+200B) and soft hyphens (U+00AD) are removed, the ends are trimmed, and every run
of white space becomes one space, where white space is ECMAScript's ``\\s``
(:data:`WHITE_SPACE`). With ``exact: true`` the two must then be equal.

Python's ``str.split()`` also splits at U+001C-U+001F and U+0085, which ECMAScript does
not: with it, ``"Add\\x1cto cart"`` matched the button "Add to cart" that ``getByRole``
would never find. Here such a name is the name it says, and matches nothing on a page.
"""

from __future__ import annotations

import re

WHITE_SPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)
"""ECMAScript's white space and line terminators: the characters its ``\\s`` and ``trim``
take (ECMA-262 WhiteSpace and LineTerminator)."""

_RUNS = re.compile(f"[{WHITE_SPACE}]+")
_INVISIBLE = re.compile("[\u200b\u00ad]")


def normalized(name: str) -> str:
    """``name`` as Playwright compares it (see the module docstring)."""
    return _RUNS.sub(" ", _INVISIBLE.sub("", name)).strip(" ")


def same_name(a: str, b: str) -> bool:
    """Whether ``getByRole`` with ``exact: true`` takes the two names for one."""
    return normalized(a) == normalized(b)
