"""Walking the schemas a schema holds, keyword by keyword.

Shared by the validation projection and the published forms: both rewrite every schema a
contract holds and must tell a schema (``items``, a ``properties`` value) from data
(``enum``, ``required``, the names of a ``properties`` map).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

Json = dict[str, Any]

# Keywords that only annotate: a validator ignores them, so the projection drops them.
ANNOTATIONS = frozenset(
    {"$schema", "$id", "$comment", "title", "description", "examples", "default", "discriminator"}
)
# Keywords whose value maps names to schemas (the names are data, never annotations).
SCHEMA_MAPS = frozenset({"properties", "patternProperties", "$defs", "dependentSchemas"})
# Keywords whose value is data, copied as it is.
DATA = frozenset({"enum", "const", "required", "type"})


def each(node: Json, apply: Any) -> Json:
    """``node`` with ``apply`` applied to every schema it holds; data keywords are copied,
    and so are the names of a ``properties`` map (a property may be called ``type``)."""
    out: Json = {}
    for key, value in node.items():
        if key in DATA:
            out[key] = value
        elif key in SCHEMA_MAPS and isinstance(value, dict):
            out[key] = {name: apply(sub) for name, sub in value.items()}
        elif isinstance(value, list):
            out[key] = [apply(sub) for sub in value]
        else:
            out[key] = apply(value)
    return out


def bottom_up(node: Any, rewrite: Callable[[Json], Any]) -> Any:
    """``node`` with ``rewrite`` applied to every schema it holds, innermost first."""
    if isinstance(node, list):
        return [bottom_up(item, rewrite) for item in node]
    if not isinstance(node, dict):
        return node
    return rewrite(each(node, lambda sub: bottom_up(sub, rewrite)))


def below(node: Json) -> Iterator[Any]:
    """The schemas ``node`` holds, one level down (see :func:`each`)."""
    for key, value in node.items():
        if key in DATA:
            continue
        if key in SCHEMA_MAPS and isinstance(value, dict):
            yield from value.values()
        elif isinstance(value, list):
            yield from value
        else:
            yield value
