"""Page models at run time: each route's page, and the page a fixture sees.

The corpus stores one ``Page`` per route: the tree of every element any fixture shows, and
annotations (which fixtures show an element, states that hold in some fixtures only,
secret fields, behaviour). :func:`page` flattens it once into :class:`Element` records in
document order; :meth:`Template.view` resolves it for one fixture (and the entity a route
parameter names) into a :class:`View`, which :meth:`View.snapshot` renders as a
``semantic-snapshot.v1`` document.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from automium.accessible_names import normalized
from automium.corpus.loader import load_corpus
from automium.corpus.lookup import get_fixture

if TYPE_CHECKING:
    from automium.contracts import ElementModel, Fixture, SemanticNode, SemanticSnapshot

FRAME_ROLES = frozenset({"iframe"})
FORM_ROLES = frozenset({"form", "search"})
DIALOG_ROLES = frozenset({"dialog", "alertdialog"})


@dataclass(frozen=True, slots=True)
class Element:
    """One node of a page's tree, with what the model knows of it."""

    index: int
    ref: str
    role: str
    name: str
    value: str | None
    states: frozenset[str]
    ancestors: tuple[int, ...]  # indexes, the page root first
    text: str  # its text content (the names below it), or its own name; normalised
    frame: int | None  # the enclosing iframe
    form: int | None  # the enclosing form or search landmark, or else iframe
    dialog: int | None  # the enclosing dialog
    model: ElementModel | None

    def annotated(self, key: str) -> Any:
        return getattr(self.model, key, None) if self.model is not None else None

    @property
    def dynamic(self) -> bool:
        return bool(self.annotated("dynamic"))

    @property
    def secret(self) -> str | None:
        kind = self.annotated("secret")
        return None if kind is None else str(kind.value)

    def line(self, name: str | None = None) -> str:
        """The element as a snapshot line: ``button "Add to cart"`` (``name`` if given)."""
        shown = self.name if name is None else name
        return f'{self.role} "{shown}"' if shown else self.role


@dataclass(frozen=True, slots=True)
class Template:
    """A route's page, as every fixture of its app could see it."""

    app_id: str
    route_id: str
    elements: tuple[Element, ...]
    by_ref: Mapping[str, int]
    by_role: Mapping[str, tuple[Element, ...]]  # in document order

    def view(self, fixture: Fixture, entity: str | None) -> View:
        """The page ``fixture`` sees, showing entity ``entity`` (``None``: a new or unknown one).

        Views are immutable, so each is resolved once (a journey loads a route many times).
        """
        return _view(self.app_id, self.route_id, fixture.id, entity)

    def resolve(self, fixture: Fixture, entity: str | None) -> View:
        label = next((e.label for e in fixture.entities if e.id == entity), None)
        present: list[bool] = []
        states: list[frozenset[str]] = []
        for element in self.elements:
            only = element.annotated("fixtures")
            shown = only is None or fixture.id in {f.root for f in only}
            present.append(shown and all(present[a] for a in element.ancestors))
            extra = {
                s.state.value
                for s in element.annotated("states_in") or ()
                if fixture.id in {f.root for f in s.fixtures}
            }
            states.append(element.states | extra)
        return View(self, fixture, entity, label, tuple(present), tuple(states))

    def find(self, ref: str) -> Element | None:
        index = self.by_ref.get(ref)
        return None if index is None else self.elements[index]


@dataclass(frozen=True, slots=True)
class View:
    """A page as one fixture sees it, before the journey acts on it."""

    template: Template
    fixture: Fixture
    entity: str | None
    label: str | None  # the entity's label, when the entity is known
    present: tuple[bool, ...]
    states: tuple[frozenset[str], ...]

    @property
    def route_id(self) -> str:
        return self.template.route_id

    def elements(self) -> Iterator[Element]:
        """The elements this fixture has, in document order."""
        return (e for e in self.template.elements if self.present[e.index])

    def elements_with_role(self, role: str) -> Iterator[Element]:
        """The elements of ``role`` this fixture has, in document order (a target names its
        role: looking it up beats scanning a page of some 40 elements per step)."""
        return (e for e in self.template.by_role.get(role, ()) if self.present[e.index])

    def name(self, element: Element) -> str | None:
        """``element``'s accessible name here; ``None`` when it is an unknown entity's label."""
        if element.annotated("name_from_entity"):
            return self.label
        return element.name

    def hidden(self, element: Element) -> bool:
        """Hidden when the page loads (until an effect reveals it)."""
        return "hidden" in self.states[element.index]

    def snapshot(self) -> SemanticSnapshot:
        """This view as a ``semantic-snapshot.v1`` document (for the fixture's viewport)."""
        from automium import contracts  # noqa: PLC0415 - the facade builds models on first use
        from automium.corpus.lookup import get_environment_profile  # noqa: PLC0415

        root = self._node(self.template.elements[0])
        profile = get_environment_profile(self.fixture.environment_profile_id)
        return contracts.SemanticSnapshot(
            schema_version="automium.semantic-snapshot/v1",
            route_id=self.route_id,
            viewport=profile.viewport,
            root=root,
        )

    def _node(self, element: Element) -> SemanticNode:
        from automium import contracts  # noqa: PLC0415

        children = [
            self._node(child)
            for child in self.template.elements
            if child.ancestors
            and child.ancestors[-1] == element.index
            and self.present[child.index]
        ]
        # In the order the contract lists the states, as a snapshot writes them.
        states = [s.value for s in contracts.NodeState if s.value in self.states[element.index]]
        return contracts.SemanticNode(
            ref=element.ref,
            role=element.role,
            name=self.name(element) or "",
            **contracts.present(
                value=element.value, states=states or None, children=children or None
            ),
        )


@cache
def _view(app_id: str, route_id: str, fixture_id: str, entity: str | None) -> View:
    return page(app_id, route_id).resolve(get_fixture(fixture_id, app_id), entity)


@cache
def _templates() -> Mapping[tuple[str, str], Template]:
    return {(p.app_id, p.route_id): _template(p) for p in load_corpus().pages}


def page(app_id: str, route_id: str) -> Template:
    """The page of a route (``KeyError`` for a route the corpus does not have)."""
    return _templates()[(app_id, route_id)]


def pages(app_id: str) -> tuple[Template, ...]:
    """Every page of an app, in route order."""
    return tuple(t for (app, _), t in _templates().items() if app == app_id)


def prepare(fixture: Fixture) -> None:
    """Resolve every page ``fixture`` can see, each entity's too: views are cached, so the
    first journey on the fixture finds them built."""
    for template in pages(fixture.app_id):
        for entity in (None, *(e.id for e in fixture.entities if e.route == template.route_id)):
            template.view(fixture, entity)


def _template(model: Any) -> Template:
    annotations = {e.ref: e for e in model.elements}
    slots: list[Element | None] = []

    def walk(node: SemanticNode, path: tuple[tuple[int, str], ...]) -> list[str]:
        """Flatten ``node`` below ``path`` ((index, role) from the root); its texts."""
        index = len(slots)
        slots.append(None)  # the element needs its subtree's text: filled in afterwards
        below: list[str] = []
        for child in node.children or ():
            below.extend(walk(child, (*path, (index, node.role))))
        own = [node.name] if node.name else []
        slots[index] = Element(
            index=index,
            ref=node.ref,
            role=node.role,
            name=node.name,
            value=node.value,
            states=frozenset(s.value for s in node.states or ()),
            ancestors=tuple(i for i, _ in path),
            # What a reader sees: the content below it, or its name when it has none.
            text=normalized(" ".join(below) if below else node.name),
            frame=_innermost(path, FRAME_ROLES),
            # A framed document's fields share no form with the page's: a frame bounds one.
            form=_innermost(path, FORM_ROLES | FRAME_ROLES),
            dialog=_innermost(path, DIALOG_ROLES),
            model=annotations.get(node.ref),
        )
        # A frame's document is not its host's text (toContainText on the host skips it).
        return [] if node.role in FRAME_ROLES else own + below

    walk(model.root, ())
    elements = tuple(e for e in slots if e is not None)
    return Template(
        app_id=model.app_id,
        route_id=model.route_id,
        elements=elements,
        by_ref={e.ref: e.index for e in elements},
        by_role={
            role: tuple(e for e in elements if e.role == role)
            for role in {e.role for e in elements}
        },
    )


def _innermost(path: tuple[tuple[int, str], ...], roles: frozenset[str]) -> int | None:
    return next((index for index, role in reversed(path) if role in roles), None)
