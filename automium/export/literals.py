"""Text from a journey, written safely into source code and comments.

Every string a journey supplies (names, values, goals, notes) is escaped for the language it
lands in, and ``://`` is never written as such: an exported file names no scheme, so a value
that holds a web address is spelled with an escaped slash, and a comment with a space.

No control character is ever written raw, in a string or a comment: every one of U+0000 to
U+001F and U+007F to U+009F, and the line separators U+2028 and U+2029, is an escape (a NUL
is no valid Python source at all, and U+2028 ends a JavaScript comment).
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
        elif _control(char):
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


def _control(char: str) -> bool:
    code = ord(char)
    return code < 0x20 or 0x7F <= code <= 0x9F or char in "\u2028\u2029"


def comment(text: str) -> str:
    """``text`` on one line, fit for a comment in either language: white space runs are one
    space, and every other control character is written as its ``\\uXXXX`` escape."""
    line = " ".join(text.split())
    line = "".join(f"\\u{ord(c):04x}" if _control(c) else c for c in line)
    return line.replace("://", ": //")
