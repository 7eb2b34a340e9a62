"""Domain errors: one exception type, each problem with a stable code.

Every way an input can be refused is a :class:`Problem` — a code from the frozen
``tool-error.v1`` vocabulary, a message an agent can act on, the JSON Pointer of the
offending value and, where the set is small and known, the allowed values. Domain code
raises :class:`AutomiumError` carrying every problem it found (validation collects them all
in one pass); the MCP boundary converts it once, with :meth:`AutomiumError.to_tool_error`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from automium import contracts

if TYPE_CHECKING:
    from automium.contracts import ErrorCode, ToolError

Allowed = tuple[str | int, ...]

# Kept well under the contract's maxItems, so a listing never becomes the error.
MAX_PROBLEMS = 200
"""Problems one error lists (``tool-error.v1`` allows 1000): past that, a count."""
SHOWN = 60
"""Characters of a caller's value quoted back in a message: enough to recognise it."""


def quoted(value: Any, limit: int = SHOWN) -> str:
    """``value`` as a message quotes it: as a JSON string (or JSON text, when it is no
    string), cut short, since a caller's value may be megabytes long. Nothing of it can pass
    for the message's own text: quotes, backslashes and every character that is not
    printable (line breaks, U+0085, U+2028, bidi controls, …) are escaped as JSON escapes."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=repr)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    if not isinstance(value, str):
        return _printable(text)
    return _printable(json.dumps(text, ensure_ascii=False))


def _printable(text: str) -> str:
    """``text`` with every character that is not printable as its JSON escape."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else json.dumps(c)[1:-1] for c in text)


def pointer(*parts: str | int) -> str:
    """A JSON Pointer (RFC 6901) from path parts: ``pointer("steps", 3) == "/steps/3"``."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def pointer_key(path: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key putting JSON Pointers in document order ("/steps/10" after "/steps/9")."""
    # isdecimal, not isdigit: "²".isdigit() is true but int("²") raises (a caller's key).
    return tuple((0, int(p)) if p.isdecimal() else (1, p) for p in path.split("/")[1:])


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with an input."""

    code: ErrorCode
    message: str
    path: str = ""
    allowed: Allowed = ()


class AutomiumError(Exception):
    """Raised by the domain for any input it refuses; carries one or more problems."""

    def __init__(self, problems: Iterable[Problem], *, in_order: bool = False) -> None:
        """``problems`` in document order, or, ``in_order``, in the order given: a producer
        that knows where each problem arises puts the causes first."""
        unique = dict.fromkeys(problems)
        if not unique:
            raise ValueError("an AutomiumError needs at least one problem")
        ordered = list(unique) if in_order else sorted(unique, key=lambda p: pointer_key(p.path))
        self.problems: tuple[Problem, ...] = tuple(ordered[:MAX_PROBLEMS])
        super().__init__(self.problems[0].message)

    @classmethod
    def single(
        cls, code: ErrorCode, message: str, path: str = "", allowed: Sequence[str | int] = ()
    ) -> AutomiumError:
        return cls([Problem(code, message, path, tuple(allowed))])

    @property
    def code(self) -> ErrorCode:
        return self.problems[0].code

    @property
    def message(self) -> str:
        return self.problems[0].message

    def to_tool_error(self) -> ToolError:
        """The ``tool-error.v1`` document: the first problem on top, the others listed.

        Each problem is listed once: an agent reads the whole document in its context.
        Every field stays within the contract's own limits, whatever a problem holds: a long
        list of allowed values is cut at the contract's ``maxItems`` and says how many were
        left out, so the error never becomes an error of its own.
        """
        first = _within_limits(self.problems[0])
        listed = [_within_limits(p) for p in self.problems[1:]] or None
        return contracts.ToolError(
            schema_version="automium.tool-error/v1",
            code=first.code,
            message=first.message,
            path=first.path,
            **contracts.present(
                allowed=first.allowed, allowed_left_out=first.allowed_left_out, problems=listed
            ),
        )


def _within_limits(problem: Problem) -> contracts.Problem:
    limits = _limits()
    allowed = list(problem.allowed)
    left_out = max(0, len(allowed) - limits["allowed"])
    fields: dict[str, Any] = {
        "code": problem.code,
        "message": _cut(problem.message, limits["message"]),
        "path": _parent_within(problem.path, limits["path"]),
    }
    if allowed:
        fields["allowed"] = allowed[: limits["allowed"]]
    if left_out:
        fields["allowed_left_out"] = left_out
    return contracts.Problem(**fields)


@cache
def _limits() -> dict[str, int]:
    problem = contracts.bundled_schema("tool-error.v1")["$defs"]["Problem"]["properties"]
    text = contracts.bundled_schema("tool-error.v1")["$defs"]["Text"]
    return {
        "allowed": int(problem["allowed"]["maxItems"]),
        "path": int(problem["path"]["maxLength"]),
        "message": int(text["maxLength"]),
    }


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _parent_within(path: str, limit: int) -> str:
    """``path``, or its nearest ancestor whose pointer fits ``limit`` characters."""
    while len(path) > limit:
        path = path.rsplit("/", 1)[0]
    return path
