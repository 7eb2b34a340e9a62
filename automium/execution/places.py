"""Where a journey goes: route ids to URL paths and back, and targets to Playwright locators.

The executor opens routes of the app's route manifest only. A route id and the fixture's
entity make the path (``product`` + ``stoneware-mug`` -> ``/products/stoneware-mug``);
anything else (a URL, a path, an unknown id) is refused with :class:`RefusedPlace`, and
the URL is always the app server's loopback base plus that path.

A target becomes ``get_by_role(role, name=..., exact=True)`` with ``.nth(i)``. Playwright's
``get_by_role`` on a page does not look inside an iframe, so a target the page model places
under an ``iframe "X"`` node is looked up in ``locator('iframe[title="X"]').content_frame``
(the page-model format's iframe rule).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import quote, unquote, urlsplit

from automium import corpus
from automium.accessible_names import normalized
from automium.contracts import Fixture
from automium.corpus.pages import View

if TYPE_CHECKING:
    from playwright.sync_api import FrameLocator, Locator, Page

_PARAM = re.compile(r":([A-Za-z][A-Za-z0-9]*)")
_ROUTE_ID = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")


class RefusedPlace(ValueError):
    """A place the executor will not open: not a route id of the app, or no entity for it."""


@dataclass(frozen=True, slots=True)
class Routes:
    """The route manifest of one fixture's app, both ways."""

    fixture: Fixture
    paths: tuple[tuple[str, str], ...]  # (route id, path pattern), manifest order

    @classmethod
    def of(cls, fixture: Fixture) -> Routes:
        app = corpus.get_app(fixture.app_id)
        return cls(fixture, tuple((r.id, r.path) for r in app.routes))

    def path(self, route_id: str, entity: str | None) -> str:
        """The URL path of ``route_id`` showing ``entity``; refuses anything else."""
        if not isinstance(route_id, str) or not _ROUTE_ID.match(route_id):
            raise RefusedPlace(f"{route_id!r} is not a route id; the executor opens routes only")
        pattern = dict(self.paths).get(route_id)
        if pattern is None:
            raise RefusedPlace(f"{route_id!r} is no route of {self.fixture.app_id}")
        if not _PARAM.search(pattern):
            return pattern
        found = next(
            (e for e in self.fixture.entities if e.id == entity and e.route == route_id), None
        )
        if found is None:
            raise RefusedPlace(
                f"route {route_id} needs an entity of {self.fixture.id}; {entity!r} is none"
            )
        return _PARAM.sub(quote(found.value, safe=""), pattern)

    def match(self, url: str) -> tuple[str, str | None] | None:
        """The route and entity id a URL of the app shows, if any."""
        path = unquote(urlsplit(url).path) or "/"
        for route_id, pattern in self.paths:
            regex = "^" + _PARAM.sub(r"(?P<param>[^/]+)", re.escape(pattern).replace(r"\:", ":"))
            matched = re.match(regex + "/?$" if pattern != "/" else "^/$", path)
            if matched is None:
                continue
            value = matched.groupdict().get("param")
            entity = next(
                (
                    e.id
                    for e in self.fixture.entities
                    if e.route == route_id and value is not None and e.value == value
                ),
                None,
            )
            return route_id, entity
        return None


def frame_title(view: View | None, role: str, name: str) -> str | None:
    """The title of the iframe the page model puts the element in, when it does."""
    if view is None:
        return None
    wanted = normalized(name)
    for element in view.elements_with_role(role):
        if normalized(view.name(element) or "") == wanted and element.frame is not None:
            frame = view.template.elements[element.frame]
            return frame.name
    return None


def locator(
    page: Page, role: str, name: str, nth: int | None, frame: str | None, *, counted: bool = False
) -> Locator:
    """The Playwright locator of a target; ``counted`` leaves ``nth`` out (count_equals)."""
    scope: Page | FrameLocator = page
    if frame is not None:
        scope = page.locator(f"iframe[title={_css_string(frame)}]").content_frame
    found = scope.get_by_role(role, name=name, exact=True)  # type: ignore[arg-type]
    if nth is not None and not counted:
        found = found.nth(nth)
    return found


def _css_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def described(role: str, name: str, nth: int | None, frame: str | None) -> str:
    """The locator as a person reads it: ``get_by_role("button", name="Add")``."""
    base = f'get_by_role("{role}", name="{name}", exact=True)'
    if nth is not None:
        base += f".nth({nth})"
    if frame is not None:
        base = f'frame "{frame}" > ' + base
    return base
