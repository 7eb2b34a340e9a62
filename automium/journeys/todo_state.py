"""TodoMVC's list, followed through a journey: the one app whose dynamic content the page
models cannot sample usefully, since every count, counter and row depends on what the
journey did.

The rules are TodoMVC's (todomvc.com's app specification): Enter in the new-todo field adds
its trimmed text, if any; a row's toggle completes or reopens it; Delete removes it; "Mark
all as complete" completes every row (or reopens every row when all are complete); "Clear
completed" removes the completed rows and is shown only while one exists; the footer, with
"N items left" ("1 item left"), is shown only while the list has a row; the Active and
Completed filters show the rows of their kind. A filter link keeps the list; a ``navigate``
that loads the app again keeps it only while it is still the fixture's (whether the app
stores the list across loads is for a run to say).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from automium.contracts import Fixture
from automium.corpus.pages import page

APP = "todo-mvc"
NEW_TODO = ("textbox", "What needs to be done?")
TOGGLE = ("checkbox", "Toggle Todo")
DELETE = ("button", "Delete")
TOGGLE_ALL = ("checkbox", "Mark all as complete")
CLEAR = ("button", "Clear completed")
LEFT = ("status", "Items left")
ROW_TARGETS = frozenset({TOGGLE, DELETE})
_FILTERS = {"all": None, "active": False, "completed": True}


@dataclass(frozen=True, slots=True)
class Todos:
    """The rows of the list: (title, completed), in order."""

    rows: tuple[tuple[str, bool], ...]

    def shown(self, route: str) -> list[int]:
        """Indexes of the rows the route's filter shows, in order."""
        wanted = _FILTERS.get(route)
        return [i for i, (_, done) in enumerate(self.rows) if wanted is None or done == wanted]

    @property
    def left(self) -> int:
        return sum(1 for _, done in self.rows if not done)

    @property
    def any_completed(self) -> bool:
        return any(done for _, done in self.rows)

    def counter(self) -> str:
        return f"{self.left} item{'' if self.left == 1 else 's'} left"

    def added(self, title: str) -> Todos:
        return Todos((*self.rows, (title, False)))

    def toggled(self, row: int, done: bool) -> Todos:
        rows = list(self.rows)
        rows[row] = (rows[row][0], done)
        return replace(self, rows=tuple(rows))

    def removed(self, row: int) -> Todos:
        return Todos(self.rows[:row] + self.rows[row + 1 :])

    def all_toggled(self) -> Todos:
        done = not all(d for _, d in self.rows)
        return Todos(tuple((title, done) for title, _ in self.rows))

    def cleared(self) -> Todos:
        return Todos(tuple(row for row in self.rows if not row[1]))


def initial(fixture: Fixture) -> Todos | None:
    """The fixture's list, as the page model of route ``all`` shows it; ``None`` for an app
    that is not TodoMVC."""
    if fixture.app_id != APP:
        return None
    view = page(APP, "all").view(fixture, None)
    elements = view.template.elements
    rows = []
    for row in view.elements():
        if row.role != "listitem" or row.dynamic or row.annotated("fixtures") is None:
            continue
        texts = [
            e.name for e in view.elements() if e.role == "text" and e.ancestors[-1] == row.index
        ]
        toggles = [
            e
            for e in elements
            if (e.role, e.name) == TOGGLE and e.ancestors and e.ancestors[-1] == row.index
        ]
        done = any("checked" in view.states[t.index] for t in toggles)
        rows.append((" ".join(texts), done))
    return Todos(tuple(rows))
