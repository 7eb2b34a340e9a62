"""What the walk through a journey's pages finds, and how it records it.

:class:`Findings` holds the walk's state (the fixture, what other checks already refused,
where the journey is) and records its problems, warnings and unchecked items;
:mod:`automium.journeys.target_checks`, :mod:`automium.journeys.assertion_checks` and
:mod:`automium.journeys.page_checks` build on it, one job each.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from automium.contracts import ErrorCode, Fixture, UncheckedReason, WarningCode
from automium.corpus.pages import Element
from automium.errors import Problem, quoted
from automium.journeys import todo_state
from automium.journeys.page_walk import Change, Location

Step = Mapping[str, Any]

BY_RUN = "proven only by a run (automium run)"
REF_WARNING = (
    "{ref} is a snapshot ref: refs change between snapshots, so the journey breaks when the "
    "page does; prefer role and name"
)


@dataclass(frozen=True, slots=True)
class Warning:
    """A finding that does not make the journey invalid."""

    code: WarningCode
    path: str
    message: str


@dataclass(frozen=True, slots=True)
class Unchecked:
    """A step or assertion the page models cannot settle: only a run can."""

    path: str
    reason: UncheckedReason
    message: str


class Uncertain:
    """A target matching no element the page model shows, but one a ``[dynamic]`` list of
    the page may show at run time (a cart row, a search result, a new todo)."""


UNCERTAIN = Uncertain()


@dataclass(frozen=True, slots=True)
class Visit:
    """One step: where it started, the element it acted on, where it ended, what happened."""

    index: int
    step_id: str
    before: Location | None
    element: Element | None
    after: Location | None
    happened: tuple[Change, ...] = ()
    todos: todo_state.Todos | None = None  # TodoMVC's list after the step, when followed


@dataclass
class Walk:
    """Everything :func:`walk` found."""

    problems: list[Problem] = field(default_factory=list)
    warnings: list[Warning] = field(default_factory=list)
    visits: list[Visit] = field(default_factory=list)
    unchecked: list[Unchecked] = field(default_factory=list)
    # By the index of a branch's first step: the branch the fixture's page models take
    # (True: the guard holds; None: only a run can tell), and the page it is decided on.
    branches: dict[int, bool | None] = field(default_factory=dict)
    at_guard: dict[int, Location | None] = field(default_factory=dict)
    # By branch start: the fixture that takes the branch the journey's fixture does not.
    other_branch: dict[int, str] = field(default_factory=dict)

    def unchecked_at(self, path: str) -> Unchecked | None:
        return next((u for u in self.unchecked if u.path == path), None)

    def after(self, step_id: str) -> Visit | None:
        return next((v for v in self.visits if v.step_id == step_id), None)


class Findings:
    """The walk's state and its records."""

    def __init__(self, fixture: Fixture, refused: frozenset[str]) -> None:
        self.fixture = fixture
        self.refused = refused
        # Every path with a problem at it or inside it, found once instead of per step.
        self._refused_within = {path[:end] for path in refused for end in ends(path)}
        self.result = Walk()
        self.since: str | None = None  # the step whose page is being checked
        self.index = 0  # the step being walked
        self.typed: set[str] = set()  # values the journey typed: a dynamic list may show them
        self.fresh = todo_state.initial(fixture)
        self.todos: todo_state.Todos | None = None  # TodoMVC's list, while it is known
        self.loaded = False
        self.unknown_why = ""  # why the page is unknown, once it is
        self.doubt = ""  # why the page the step leads to is in doubt (Location.doubt)
        self.drafted: dict[str, set[int]] = {}  # fields the journey set, by route
        self.drafted_names: set[tuple[str, str | None]] = set()  # and their (role, name)
        self.signed_out = ""  # the step that signed the journey out, while it is

    # -- bookkeeping --------------------------------------------------------------------------

    def _refused(self, path: str) -> bool:
        """Whether a problem was reported at ``path`` or inside it."""
        return path in self._refused_within

    def _unchecked(self, path: str, reason: UncheckedReason, what: str) -> None:
        if self.result.unchecked_at(path) is None:
            self.result.unchecked.append(Unchecked(path, reason, f"{what}; {BY_RUN}"))

    def _lose(self, step: Step, path: str, why: str) -> None:
        self.unknown_why = f"after step {quoted(step.get('id'))}: {why}"
        self._warn(
            WarningCode.UNKNOWN_EFFECT,
            path,
            f"after step {quoted(step.get('id'))} the page is unknown ({why}), so the steps and "
            "assertions after it are not checked against pages until the next navigate",
        )

    def _problem(
        self, code: ErrorCode, message: str, path: str, allowed: Sequence[str] = ()
    ) -> None:
        self.result.problems.append(Problem(code, message, path, tuple(allowed)))

    def _warn(self, code: WarningCode, path: str, message: str) -> None:
        self.result.warnings.append(Warning(code, path, message))


def target_line(target: Mapping[str, Any]) -> str:
    return f'{target.get("role")} "{target.get("name")}"'


def parts(path: str) -> Iterator[str | int]:
    for part in path.split("/")[1:]:
        yield int(part) if part.isdecimal() else part


def ends(path: str) -> Iterator[int]:
    """Where each ancestor pointer of ``path`` ends, ``path`` itself included."""
    yield from (i for i, c in enumerate(path) if c == "/" and i)
    yield len(path)
