"""Routes as a test runner sees them: the path ``navigate`` opens, the URL ``route_is`` expects.

Paths come from the app's route manifest, with a route parameter replaced by the fixture
entity's value. A page is opened by path only, against the runner's base URL, so no
scheme or host is ever written; the URL pattern accepts any origin.
"""

from __future__ import annotations

import re
from urllib.parse import quote

from automium import corpus

_ANY_ORIGIN = "^[a-z]+://[^/]+"
_QUERY_OR_END = "(?:[?#].*)?$"
_SEGMENT = "[^/?#]+"


def route_path(app_id: str, fixture_id: str, route_id: str, entity: str | None) -> str:
    """The path of ``route_id``, its parameter filled with ``entity``'s value (encoded)."""
    path = corpus.get_route(app_id, route_id).path
    if entity is None:
        return path
    fixture = corpus.get_fixture(fixture_id, app_id)
    value = next(e.value for e in fixture.entities if e.id == entity)
    return re.sub(r":[A-Za-z]+", lambda _: quote(value, safe=""), path, count=1)


def route_pattern(app_id: str, route_id: str) -> str:
    """A regular expression (the syntax JavaScript and Python share) that the URL of
    ``route_id`` matches, whatever the origin, query or fragment.

    A parameter segment matches any one segment except a sibling route's literal one, so
    ``/tickets/:ticketId`` does not claim ``/tickets/new``.
    """
    paths = [r.path for r in corpus.get_app(app_id).routes]
    segments = corpus.get_route(app_id, route_id).path.strip("/").split("/")
    parts: list[str] = []
    for index, segment in enumerate(segments):
        if not segment.startswith(":"):
            parts.append(re.escape(segment).replace("\\-", "-"))
            continue
        prefix = segments[:index]
        literals = sorted(
            {
                other[index]
                for other in (p.strip("/").split("/") for p in paths)
                if len(other) > index
                and other[:index] == prefix
                and not other[index].startswith(":")
            }
        )
        guard = f"(?!(?:{'|'.join(map(re.escape, literals))})(?:[/?#]|$))" if literals else ""
        parts.append(guard + _SEGMENT)
    return _ANY_ORIGIN + "/" + "/".join(p for p in parts if p) + _QUERY_OR_END
