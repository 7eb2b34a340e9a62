"""How a prompt carries text it did not write: fenced, or as a JSON string, so that nothing a
caller passes can pass for the server's own words, and integers as plain ASCII digits.

A fenced block is opened by a run of backticks longer than any run inside the text, so
the text cannot close it (CommonMark ends a fence only with a run at least as long), and
whatever the text holds (a heading, "ignore the steps above") stays inside it.
"""

from __future__ import annotations

import re

_BACKTICKS = re.compile(r"`+")
_WHOLE_NUMBER = re.compile(r"-?[0-9]+")


def fenced(text: str, info: str = "") -> str:
    """``text`` in a code fence it cannot close, labelled ``info`` (``json``, …)."""
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{info}\n{text}\n{fence}"


def whole_number(text: str) -> int | None:
    """``text`` as an integer when it is plain ASCII digits (a leading ``-`` and spaces or
    tabs around allowed), else None: ``int()`` also takes ``"3_0"``, ``"+7"``, Arabic-Indic
    ``"٣"`` and any Unicode space around them."""
    digits = text.strip(" \t")
    return int(digits) if _WHOLE_NUMBER.fullmatch(digits) else None
