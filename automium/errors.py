"""Domain errors: one exception type, each problem with a stable code.

Every way an input can be refused is a :class:`Problem` — a code from the frozen
``tool-error.v1`` vocabulary, a message an agent can act on, the JSON Pointer of the
offending value and, where the set is small and known, the allowed values. Domain code
raises :class:`AutomiumError` carrying every problem it found (validation collects them all
in one pass); the MCP boundary converts it once, with :meth:`AutomiumError.to_tool_error`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from automium import contracts

if TYPE_CHECKING:
    from automium.contracts import ErrorCode, ToolError

Allowed = tuple[str | int, ...]

# Kept well under the contract's maxItems, so a listing never becomes the error.
_MAX_PROBLEMS = 200


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

    def __init__(self, problems: Iterable[Problem]) -> None:
        unique = dict.fromkeys(problems)
        if not unique:
            raise ValueError("an AutomiumError needs at least one problem")
        ordered = sorted(unique, key=lambda p: pointer_key(p.path))
        self.problems: tuple[Problem, ...] = tuple(ordered[:_MAX_PROBLEMS])
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
        """The ``tool-error.v1`` document: the first problem on top, all of them listed."""
        first = self.problems[0]
        listed = [_problem_model(p) for p in self.problems] if len(self.problems) > 1 else None
        return contracts.ToolError(
            schema_version="automium.tool-error/v1",
            code=first.code,
            message=first.message,
            path=first.path,
            allowed=list(first.allowed) or None,
            problems=listed,
        )


def _problem_model(problem: Problem) -> contracts.Problem:
    return contracts.Problem(
        code=problem.code,
        message=problem.message,
        path=problem.path,
        allowed=list(problem.allowed) or None,
    )
