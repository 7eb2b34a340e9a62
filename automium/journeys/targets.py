"""The matching rule for targets, and what to suggest when a target matches nothing.

One rule, Playwright's ``getByRole(role, {name, exact: true})``: the role is equal, and the
name equals the element's accessible name once runs of white space are collapsed and both
ends trimmed, case-sensitively. Elements inside an iframe match too. Among several matches
``nth`` counts visible ones in document order. A near-miss (another case, a part of the
name, a close spelling) is only ever a suggestion.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence

from automium.accessible_names import normalized, same_name
from automium.corpus.pages import Element, View

# WAI-ARIA 1.2 roles (https://www.w3.org/TR/wai-aria-1.2/#role_definitions), abstract ones
# left out: what getByRole accepts.
ROLES = frozenset(
    (
        "alert",
        "alertdialog",
        "application",
        "article",
        "banner",
        "blockquote",
        "button",
        "caption",
        "cell",
        "checkbox",
        "code",
        "columnheader",
        "combobox",
        "complementary",
        "contentinfo",
        "definition",
        "deletion",
        "dialog",
        "directory",
        "document",
        "emphasis",
        "feed",
        "figure",
        "form",
        "generic",
        "grid",
        "gridcell",
        "group",
        "heading",
        "img",
        "insertion",
        "link",
        "list",
        "listbox",
        "listitem",
        "log",
        "main",
        "marquee",
        "math",
        "menu",
        "menubar",
        "menuitem",
        "menuitemcheckbox",
        "menuitemradio",
        "meter",
        "navigation",
        "none",
        "note",
        "option",
        "paragraph",
        "presentation",
        "progressbar",
        "radio",
        "radiogroup",
        "region",
        "row",
        "rowgroup",
        "rowheader",
        "scrollbar",
        "search",
        "searchbox",
        "separator",
        "slider",
        "spinbutton",
        "status",
        "strong",
        "subscript",
        "superscript",
        "switch",
        "tab",
        "table",
        "tablist",
        "tabpanel",
        "term",
        "textbox",
        "time",
        "timer",
        "toolbar",
        "tooltip",
        "tree",
        "treegrid",
        "treeitem",
    )
)
# What people write for a role when they think in HTML or in widget names.
_ROLE_ALIASES = {
    "a": "link",
    "anchor": "link",
    "btn": "button",
    "input": "textbox",
    "textarea": "textbox",
    "field": "textbox",
    "select": "combobox",
    "dropdown": "combobox",
    "image": "img",
    "toast": "status",
    "modal": "dialog",
    "popup": "dialog",
    "toggle": "switch",
    "label": "heading",
    "h1": "heading",
    "h2": "heading",
    "h3": "heading",
    "nav": "navigation",
    "footer": "contentinfo",
    "header": "banner",
    "tr": "row",
    "td": "cell",
    "th": "columnheader",
    "li": "listitem",
    "ul": "list",
    "ol": "list",
}

# Selector syntaxes a name can be mistaken for: engines, XPath, chaining, CSS, script.
_LOCATOR_SYNTAX: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^(xpath|css|text|id|role|data-testid|internal:[a-z-]+)="), "a selector engine"),
    (re.compile(r"^(javascript|data|vbscript):", re.IGNORECASE), "a script URL"),
    (re.compile(r"^\(*\.?//|^/html\b|^/[a-z]+\["), "an XPath"),
    (re.compile(r">>"), "a Playwright selector chain"),
    (re.compile(r"^[#.][A-Za-z_-][\w-]*(?:[\s>+~]+|[#.:\[]|$)"), "a CSS selector"),
    (
        re.compile(r"\[[\w-]+(?:[~|^$*]?=[^\]]*)?\]|:(?:nth-child|nth-of-type|has|is|not)\("),
        "a CSS selector",
    ),
    (re.compile(r"^[a-z]+(?:\.[\w-]+|#[\w-]+)+$"), "a CSS selector"),
)


def nearest_roles(role: str) -> list[str]:
    """Roles to suggest for one that is not a WAI-ARIA role, best first."""
    alias = _ROLE_ALIASES.get(role.lower())
    close = difflib.get_close_matches(role.lower(), sorted(ROLES), n=3, cutoff=0.5)
    return list(dict.fromkeys([*([alias] if alias else []), *close]))


def locator_syntax(name: str) -> str | None:
    """What selector syntax ``name`` is written in, when it is one rather than a name."""
    return next((what for pattern, what in _LOCATOR_SYNTAX if pattern.search(name)), None)


def matches(element: Element, role: str, name: str, view: View) -> bool:
    """Whether ``element`` matches ``role`` and ``name`` under the rule above.

    An element named after an entity the page does not know (a new order, say) matches any
    name of its role: the model cannot tell, so it does not refuse. The page's own document
    matches no target.
    """
    if element.role != role:
        return False
    if not element.ancestors and role == "document":
        # The page itself: a browser gives its document no accessible name (the title is
        # not one), so getByRole finds no document by the name the model shows for it.
        return False
    own = view.name(element)
    return own is None or same_name(own, name)


def near_misses(
    role: str, name: str, elements: Iterable[Element], view: View, limit: int = 8
) -> list[str]:
    """Snapshot lines of the closest candidates, best first: elements of the same role with
    other names (another case or a part of the name first, then by spelling), then elements
    of other roles with the same name."""
    wanted = normalized(name)
    same_role: dict[str, float] = {}
    other_role: list[str] = []
    for element in elements:
        own = normalized(view.name(element) or "")
        if not own or element.role == "text":
            continue
        if element.role == role and own != wanted:
            same_role.setdefault(element.line(own), _closeness(wanted, own))
        elif element.role != role and own == wanted:
            other_role.append(element.line(own))
    ranked = sorted(same_role, key=lambda line: -same_role[line])
    return list(dict.fromkeys([*ranked[: limit - min(2, len(other_role))], *other_role]))[:limit]


def _closeness(wanted: str, own: str) -> float:
    if wanted.casefold() == own.casefold():
        return 2.0
    if wanted.casefold() in own.casefold() or own.casefold() in wanted.casefold():
        return 1.5
    return difflib.SequenceMatcher(None, wanted.casefold(), own.casefold()).ratio()


def context(element: Element, elements: Sequence[Element], view: View) -> str:
    """What tells ``element`` apart from others with its role and name: the nearest
    ancestor with a name or text of its own, e.g. ``in listitem "Buy milk"``."""
    for index in reversed(element.ancestors):
        ancestor = elements[index]
        if ancestor.role in ("document", "main", "list", "table", "rowgroup"):
            continue
        label = view.name(ancestor) or _own_text(ancestor, elements, view)
        if label:
            return f'in {ancestor.role} "{label}"'
    return "at this position in the page"


def _own_text(ancestor: Element, elements: Sequence[Element], view: View) -> str:
    texts = [
        view.name(e) or ""
        for e in elements
        if e.ancestors and e.ancestors[-1] == ancestor.index and e.role in ("text", "cell")
    ]
    return normalized(" ".join(t for t in texts if t))[:60]
