"""The proof harness: every owned app's page models held against the served app.

App-agnostic: it proves every app that has a directory under ``automium/corpus/apps/``, for
every route of its manifest and every fixture of the corpus, and every effect annotation
of its models once. What it does for one route × fixture:

1. load the route's path (an entity's value for a parameter) from an :class:`AppServer` of
   the fixture, in a fresh session of it (storage cleared): a route the fixture redirects
   must land on the redirect's target, whose model is then the one proven;
2. per frame (the page, then each model ``iframe "X"`` as its own document), render the
   model as an ARIA template (:mod:`automium.execution.aria`) and check it with
   ``expect(body).to_match_aria_snapshot(template)``: a disagreement fails with
   Playwright's diff;
3. prove each ``[hidden]`` node absent (by role and name, where that tells it apart from
   what is shown), and the ``[focused]`` node focused.

Effects are proven by acting on the element as a user would (a click; for a field, typing
and Enter; for a ``[submit]`` button, Enter in its form's first field, after filling the
form from the app's test account) and checking what the model says follows: the route's
path (the redirect's target where the fixture redirects it), the revealed node or the
opened dialog in its place, or the closed dialog gone.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import yaml  # type: ignore[import-untyped]
from playwright.sync_api import Browser, BrowserContext, Page, expect

from automium import corpus
from automium.contracts import Fixture
from automium.corpus.pages import FRAME_ROLES, Element, View, page
from automium.execution import aria
from automium.execution.contexts import fixture_context
from automium.execution.locate import locate, scope
from automium.hosting import AppServer
from automium.hosting.bundles import accounts

FIELD_ROLES = frozenset({"textbox", "searchbox", "spinbutton"})
CHROME = frozenset({"banner", "contentinfo", "navigation"})
CONTROLS = frozenset(
    {
        "button",
        "link",
        "textbox",
        "searchbox",
        "checkbox",
        "radio",
        "switch",
        "combobox",
        "listbox",
        "option",
        "spinbutton",
        "slider",
        "tab",
        "menuitem",
    }
)
# An assertion that holds passes at once; one that fails waits this long for the page first.
TIMEOUT_MS = 2_000


def owned_apps() -> tuple[str, ...]:
    """The corpus's apps that exist as served apps (a directory with an ``index.html``)."""
    root = resources.files("automium.corpus") / "apps"
    return tuple(a for a in corpus.app_ids() if (root / a / "index.html").is_file())


@dataclass(frozen=True)
class Pair:
    app_id: str
    fixture_id: str
    route_id: str

    def __str__(self) -> str:
        return f"{self.fixture_id}/{self.route_id}"


def pairs() -> list[Pair]:
    return [
        Pair(app_id, fixture.id, route.id)
        for app_id in owned_apps()
        for fixture in corpus.fixtures(app_id)
        for route in corpus.get_app(app_id).routes
    ]


def entity_for(fixture: Fixture, route_id: str) -> tuple[str | None, str]:
    """The entity a route is opened with (the fixture's first for it, if any) and the value
    its path parameter takes: else another fixture's entity of that route, else ``1``."""
    own = [e for e in fixture.entities if e.route == route_id]
    if own:
        return own[0].id, own[0].value
    others = [e for f in corpus.fixtures(fixture.app_id) for e in f.entities if e.route == route_id]
    return None, others[0].value if others else "1"


def path_for(app_id: str, route_id: str, value: str) -> str:
    return re.sub(r":[A-Za-z]+", value, corpus.get_route(app_id, route_id).path)


def path_pattern(app_id: str, route_id: str, value: str | None) -> str:
    """A regex of the route's path: a parameter is ``value``, or any one segment."""
    parts = re.split(r"(:[A-Za-z]+)", corpus.get_route(app_id, route_id).path)
    return "".join(
        (re.escape(value) if value is not None else "[^/?#]+")
        if part.startswith(":")
        else re.escape(part)
        for part in parts
    )


# -- a served session per fixture ------------------------------------------------------------


@dataclass
class Session:
    """One fixture, served, with one browser context and page reused for every proof."""

    fixture: Fixture
    server: AppServer
    context: BrowserContext
    page: Page

    @classmethod
    def open(cls, browser: Browser, fixture_id: str) -> Session:
        fixture = next(f for f in corpus.fixtures() if f.id == fixture_id)
        server = AppServer(fixture.app_id, fixture_id).start()
        context = fixture_context(browser, fixture.app_id, fixture_id)
        context.set_default_timeout(TIMEOUT_MS)
        return cls(fixture, server, context, context.new_page())

    def close(self) -> None:
        self.context.close()
        self.server.stop()

    def fresh(self, path: str) -> None:
        """Load ``path`` as a new run would: the fixture's seed, nothing the last proof did."""
        if self.page.url.startswith(self.server.url):
            self.page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
        self.page.goto(self.server.url + path)

    def expect_path(self, pattern: str) -> None:
        """Wait for the page to load a URL with this path (event-driven: no polling)."""
        self.page.wait_for_url(re.compile(rf"^{re.escape(self.server.url)}{pattern}([?#].*)?$"))


# -- what the page shows ---------------------------------------------------------------------


@dataclass
class Node:
    role: str
    name: str
    children: list[Node] = field(default_factory=list)


_ROLE_LINE = re.compile(r'^(?P<role>[a-z]+)(?: (?P<name>"(?:[^"\\]|\\.)*"))?')


def tree(snapshot: str) -> Node:
    """Playwright's ARIA snapshot of a locator, as a tree (text nodes are left out)."""
    # libyaml's loader: a snapshot is read for every page and effect proven.
    return Node("fragment", "", _items(yaml.load(snapshot, Loader=yaml.CSafeLoader) or []))


def _items(items: list[Any]) -> list[Node]:
    nodes = []
    for item in items:
        key, value = (item, None) if isinstance(item, str) else next(iter(item.items()))
        match = _ROLE_LINE.match(str(key))
        if match is None or match["role"] == "text" or str(key).startswith("/"):
            continue
        name = yaml.safe_load(match["name"]) if match["name"] else ""
        below = _items(value) if isinstance(value, list) else []
        nodes.append(Node(match["role"], str(name), below))
    return nodes


def _matches(node: Node, view: View, element: Element) -> bool:
    if node.role != element.role:
        return False
    name = view.name(element)
    if not name:
        return True
    return bool(node.name) if aria.dynamic(view, element) else node.name == name


def _flat(node: Node) -> list[Node]:
    """A node's children, a table's rows out of their row groups."""
    return [r for c in node.children for r in (c.children if c.role == "rowgroup" else [c])]


def shows_on(snapshot: Node, view: View, top: int) -> Callable[[Element], bool]:
    """Which ``[dynamic]`` nodes the page shows: one in its place on the page, under page
    nodes that match its model ancestors one level at a time.

    ``top`` is the model node the snapshot was taken of (the page, or an iframe)."""
    elements = view.template.elements

    def places(element: Element) -> list[Node]:
        if element.index == top:
            return [snapshot]
        parent = elements[element.ancestors[-1]]
        # A page node one of its static siblings names exactly is that sibling, not this.
        claimed = {
            (s.role, view.name(s))
            for s in aria.children(view, parent)
            if s.index != element.index and not aria.dynamic(view, s)
        }
        found = [
            n
            for p in places(parent)
            for n in _flat(p)
            if _matches(n, view, element) and (n.role, n.name) not in claimed
        ]
        # Samples of one shape take the page's nodes in turn: a filter that leaves one
        # row shows the first sample row, not both.
        before = [
            s
            for s in aria.children(view, parent)
            if s.index < element.index
            and s.role == element.role
            and (aria.dynamic(view, s) or not view.name(s))
        ]
        return found[len(before) :] if aria.dynamic(view, element) else found

    return lambda element: bool(places(element))


def frames(view: View, revealed: frozenset[int] = frozenset()) -> list[int | None]:
    """The page, then each model iframe the fixture shows, as separate documents."""
    shown = [
        e.index
        for e in view.elements()
        if e.role in FRAME_ROLES and not aria.hidden(view, e, revealed)
    ]
    return [None, *shown]


def rendering(
    session: Session, view: View, frame: int | None, revealed: frozenset[int] = frozenset()
) -> tuple[aria.Rendering, Any]:
    """How to render ``frame`` of the page now loaded, and the locator of its body."""
    body = _frame_body(session, view, frame)
    snapshot = tree(body.aria_snapshot())
    shows = shows_on(snapshot, view, 0 if frame is None else frame)
    return aria.Rendering(view, frame, revealed, shows), body


def _frame_body(session: Session, view: View, frame: int | None) -> Any:
    if frame is None:
        return session.page.locator("body")
    iframe = view.template.elements[frame]
    selector = f"iframe[title={aria.quoted(view.name(iframe) or '')}]"
    return scope(session.page, view, iframe).locator(selector).content_frame.locator("body")


# -- proving a page --------------------------------------------------------------------------


def landing(pair: Pair) -> tuple[str, View]:
    """The route a fixture lands on when it opens ``pair``'s route, and its model there."""
    fixture = corpus.get_fixture(pair.fixture_id, pair.app_id)
    redirect = next((r for r in fixture.redirects if r.route == pair.route_id), None)
    if redirect is not None:
        return redirect.to, page(pair.app_id, redirect.to).view(fixture, None)
    entity, _ = entity_for(fixture, pair.route_id)
    return pair.route_id, page(pair.app_id, pair.route_id).view(fixture, entity)


def prove_page(
    session: Session, pair: Pair, arrive: Callable[[Session], None] | None = None
) -> None:
    """``arrive``, where given, brings a fresh session to the route as a user would: for a
    page that exists only once the user has acted (a new customer's first ticket)."""
    fixture = session.fixture
    _, value = entity_for(fixture, pair.route_id)
    if arrive is None:
        session.fresh(path_for(pair.app_id, pair.route_id, value))
    else:
        arrive(session)
        session.expect_path(path_pattern(pair.app_id, pair.route_id, None))
    landed, view = landing(pair)
    landed_entity = view.entity
    landed_value = next((e.value for e in fixture.entities if e.id == landed_entity), None)
    if landed != pair.route_id:
        session.expect_path(path_pattern(pair.app_id, landed, landed_value))
    for frame in frames(view):
        how, body = rendering(session, view, frame)
        expect(body).to_match_aria_snapshot(aria.template(how))
        prove_no_extra_controls(tree(body.aria_snapshot()), how)
    prove_hidden(session, view)
    prove_focus(session, view)


def _controls(node: Node, top: str = "") -> list[tuple[str, str, str]]:
    """(the top-level node's role, role, name) of every control under ``node``."""
    own = [(top, node.role, node.name)] if node.role in CONTROLS else []
    return own + [c for child in node.children for c in _controls(child, top or child.role)]


def prove_no_extra_controls(snapshot: Node, how: aria.Rendering) -> None:
    """The template matches the model's nodes among the page's; a control the model does
    not have (a button, a link, a field) must not be there either, unless a ``[dynamic]``
    part of the model in the same top-level landmark can hold one of its role (a list of
    results, a cart's buttons)."""
    view = how.view
    elements = view.template.elements
    top = 0 if how.frame is None else how.frame

    def landmark(element: Element) -> str:
        below = [i for i in (*element.ancestors, element.index) if i > top]
        return elements[below[0]].role if below[1:] else ""

    shown = [e for e in view.elements() if e.role in CONTROLS and how.included(e)]
    modeled = Counter(
        (landmark(e), e.role, view.name(e) or "") for e in shown if not aria.dynamic(view, e)
    )
    shapes = {(landmark(e), e.role) for e in shown if aria.dynamic(view, e)}
    extra = Counter(_controls(snapshot)) - modeled
    unmodeled = sorted(
        f'{role} "{name}"' for where, role, name in extra.elements() if (where, role) not in shapes
    )
    assert unmodeled == [], f"controls on the page that its model does not have: {unmodeled}"


def prove_hidden(
    session: Session,
    view: View,
    revealed: frozenset[int] = frozenset(),
    timeout: float | None = None,
) -> None:
    """Each hidden node that its role and name tell apart from what is shown is absent."""
    shown = [e for e in view.elements() if not aria.hidden(view, e, revealed)]
    for element in view.elements():
        if element.role == "text" or not aria.hidden(view, element, revealed):
            continue
        if element.ancestors and aria.hidden(view, view.template.elements[element.ancestors[-1]]):
            continue  # its hidden ancestor is checked instead
        name = view.name(element)
        if any(e.role == element.role and view.name(e) == name for e in shown):
            continue  # a visible twin: the template's place for it decides
        where = scope(session.page, view, element)
        found = (
            where.get_by_role(element.role, name=name, exact=True)  # type: ignore[arg-type]
            if name
            else where.get_by_role(element.role)  # type: ignore[arg-type]
        )
        expect(found, f"{element.line(name)} is [hidden] until revealed").to_have_count(
            0, timeout=timeout
        )


def prove_focus(session: Session, view: View) -> None:
    for element in view.elements():
        if "focused" in view.states[element.index] and not aria.hidden(view, element):
            expect(locate(session.page, view, element)).to_be_focused()


# -- effects ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class EffectCase:
    """One element with effects, proven in the first fixture that shows it."""

    app_id: str
    fixture_id: str
    route_id: str
    ref: str
    line: str

    def __str__(self) -> str:
        return f"{self.fixture_id}/{self.route_id}/{self.ref} {self.line}"

    @property
    def element(self) -> str:
        """The element as its model line names it: ``button "Import"``."""
        return self.line.split(" -> ", 1)[0]


def effect_cases() -> list[EffectCase]:
    """Every effect annotation, once: an element of the site's chrome (a banner's, footer's
    or navigation's) repeated with the same effects on several routes is one annotation,
    proven on its first route."""
    cases = []
    seen: set[tuple[str, ...]] = set()
    for app_id in owned_apps():
        fixtures = corpus.fixtures(app_id)
        for route in corpus.get_app(app_id).routes:
            template = page(app_id, route.id)
            for element in template.elements:
                if not (element.annotated("effects") or element.annotated("submit")):
                    continue
                chosen = _first_fixture_showing(template.app_id, route.id, element, fixtures)
                if chosen is None:
                    continue
                view = template.view(chosen, entity_for(chosen, route.id)[0])
                line = _effects_line(view, element)
                place = tuple(template.elements[i].line() for i in element.ancestors[1:])
                chrome = bool(place) and place[0] in CHROME
                key = (app_id, *place, line) if chrome else (app_id, route.id, element.ref)
                if key not in seen:
                    seen.add(key)
                    cases.append(EffectCase(app_id, chosen.id, route.id, element.ref, line))
    return cases


def _first_fixture_showing(
    app_id: str, route_id: str, element: Element, fixtures: tuple[Fixture, ...]
) -> Fixture | None:
    """The first fixture that shows ``element`` at load, else the first that has it."""
    having = []
    for fixture in fixtures:
        if any(r.route == route_id for r in fixture.redirects):
            continue
        view = page(app_id, route_id).view(fixture, entity_for(fixture, route_id)[0])
        if view.present[element.index]:
            if not aria.hidden(view, element):
                return fixture
            having.append(fixture)
    return having[0] if having else None


def _effects_line(view: View, element: Element) -> str:
    effects = [_effect_text(view, e) for e in element.annotated("effects") or ()]
    if element.annotated("submit"):
        effects.insert(0, "[submit]")
    return f"{element.line(view.name(element))} -> {', '.join(effects)}"


def _effect_text(view: View, effect: Any) -> str:
    if effect.kind == "navigate":
        return str(effect.route) + (f"({effect.entity})" if effect.entity else "")
    if effect.kind == "close_dialog":
        return "close"
    # A reveal's refs are ElementRef models; a dialog's ref is a plain string.
    refs = [r.root for r in effect.refs] if effect.kind == "reveal" else [effect.ref]
    names = [view.template.find(r) for r in refs]
    return f"{effect.kind} " + ", ".join(e.line(view.name(e)) for e in names if e is not None)


def prove_effects(session: Session, case: EffectCase, setup: Callable[[Session], None]) -> None:
    fixture = session.fixture
    entity, value = entity_for(fixture, case.route_id)
    view = page(case.app_id, case.route_id).view(fixture, entity)
    element = view.template.elements[view.template.by_ref[case.ref]]
    path = path_for(case.app_id, case.route_id, value)
    session.fresh(path)
    setup(session)
    revealed = _reach(session, view, element)
    effects = list(element.annotated("effects") or ())
    if element.annotated("submit"):
        _submit(session, view, element, revealed)
    else:
        _act(session, view, element, revealed)
    for effect in effects:
        revealed = _check(session, view, element, effect, revealed)


def _reach(session: Session, view: View, element: Element) -> frozenset[int]:
    """Reveal (or open) what hides ``element``, by acting on what the model says reveals it."""
    revealed: frozenset[int] = frozenset()
    elements = view.template.elements
    for index in (*element.ancestors, element.index):
        if not view.hidden(elements[index]) or index in revealed:
            continue
        opener = next(
            (e for e in view.elements() if index in _targets(view, e) and e.index != element.index),
            None,
        )
        if opener is None:
            raise AssertionError(f"nothing in the model reveals {elements[index].line()}")
        revealed |= _reach(session, view, opener)
        _act(session, view, opener, revealed)
        revealed |= _targets(view, opener)
    return revealed


def _targets(view: View, element: Element) -> frozenset[int]:
    found: set[int] = set()
    for effect in element.annotated("effects") or ():
        if effect.kind == "reveal":
            found |= {view.template.by_ref[r.root] for r in effect.refs}
        elif effect.kind == "open_dialog":
            found.add(view.template.by_ref[effect.ref])
    return frozenset(found)


def _visible(view: View, revealed: frozenset[int]) -> frozenset[int]:
    return frozenset(e.index for e in view.elements() if not aria.hidden(view, e, revealed))


def _act(session: Session, view: View, element: Element, revealed: frozenset[int]) -> None:
    target = locate(session.page, view, element, _visible(view, revealed))
    if element.role in FIELD_ROLES:
        target.fill("Automium proof")
        target.press("Enter")
    else:
        target.click()


def _submit(session: Session, view: View, element: Element, revealed: frozenset[int]) -> None:
    """Fill the button's form from the app's test account, then press Enter in a field."""
    elements = view.template.elements
    form = element.form
    fields = [
        e
        for e in view.elements()
        if e.form == form and e.role in FIELD_ROLES and not aria.hidden(view, e, revealed)
    ]
    visible = _visible(view, revealed)
    profile, secrets = _account(session)
    for field_element in fields:
        kind = field_element.secret
        name = (view.name(field_element) or "").lower()
        text = secrets.get(kind) if kind else profile.get(name)
        if isinstance(text, str):
            locate(session.page, view, field_element, visible).fill(text)
    if not fields:
        raise AssertionError(
            f"{element.line()} is [submit] but its {elements[form or 0].role} "
            "has no field to press Enter in"
        )
    locate(session.page, view, fields[0], visible).press("Enter")


def _account(session: Session) -> tuple[dict[str, Any], dict[str, Any]]:
    """The fixture's first account, else the app's first: what a sign-in form is filled with."""
    records = accounts(session.fixture.app_id)
    refs = [r.root for r in session.fixture.account_refs] or list(records)
    if not refs:
        return {}, {}
    record = records.get(refs[0], {})
    return dict(record.get("profile", {})), dict(record.get("secrets", {}))


def _also(shows: Callable[[Element], bool], index: int) -> Callable[[Element], bool]:
    """``shows``, and the node an effect must have revealed, which the page must show."""
    return lambda element: element.index == index or shows(element)


def _check(
    session: Session, view: View, element: Element, effect: Any, revealed: frozenset[int]
) -> frozenset[int]:
    fixture = session.fixture
    if effect.kind == "navigate":
        redirect = next((r for r in fixture.redirects if r.route == effect.route), None)
        route = effect.route if redirect is None else redirect.to
        value = next((e.value for e in fixture.entities if e.id == effect.entity), None)
        session.expect_path(path_pattern(view.template.app_id, route, value))
        return revealed
    if effect.kind == "close_dialog":
        dialog = view.template.elements[element.dialog] if element.dialog is not None else None
        if dialog is None:
            raise AssertionError(f"{element.line()} closes a dialog but is in none")
        expect(locate(session.page, view, dialog)).to_have_count(0)
        return revealed - {dialog.index}
    shown = _targets(view, element)
    revealed |= shown
    for index in sorted(shown):
        target = view.template.elements[index]
        frame = target.frame
        how, body = rendering(session, view, frame, revealed)
        forced = aria.Rendering(view, frame, revealed, _also(how.shows, index))
        expect(body).to_match_aria_snapshot(aria.subtree(forced, target))
        prove_frames_within(session, view, target, revealed)
    return revealed


def prove_frames_within(
    session: Session, view: View, target: Element, revealed: frozenset[int]
) -> None:
    """Each iframe inside what an effect revealed, proven as its own document: the page's
    template shows it as a bare ``- iframe``, so its content is checked here."""
    elements = view.template.elements
    for frame in frames(view, revealed):
        if frame is not None and target.index in (frame, *elements[frame].ancestors):
            how, body = rendering(session, view, frame, revealed)
            expect(body).to_match_aria_snapshot(aria.template(how))
