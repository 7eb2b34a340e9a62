"""The formats, and a journey rendered in each: a suggested file name and its text."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from automium.errors import AutomiumError
from automium.export import python, typescript
from automium.export.plan import ExportPlan, plan
from automium.journeys.checking import check_journey
from automium.journeys.composition import Prefix
from automium.journeys.page_checks import Walk
from automium.journeys.whole_numbers import whole_numbers

_RENDERERS: dict[str, tuple[Callable[[ExportPlan], str], Callable[[ExportPlan], str]]] = {
    "ts": (typescript.file_name, typescript.render),
    "py": (python.file_name, python.render),
}
FORMATS = tuple(_RENDERERS)
"""``ts``: ``@playwright/test``; ``py``: pytest with pytest-playwright."""


@dataclass(frozen=True, slots=True)
class ExportedFile:
    format: str
    file_name: str
    text: str

    def document(self) -> dict[str, str]:
        """As ``journey-compilation.v1`` lists it under ``exports``."""
        return {"format": self.format, "fileName": self.file_name, "text": self.text}


def exported_files(
    document: Mapping[str, Any], walk: Walk, formats: Iterable[str], prefix: Prefix | None = None
) -> list[ExportedFile]:
    """``document``, a journey that compiled, in each of ``formats`` (in the order given);
    ``prefix``: the steps of the journeys it uses, first in ``document``."""
    test = plan(document, walk, prefix)
    return [
        ExportedFile(name, _RENDERERS[name][0](test), _RENDERERS[name][1](test))
        for name in dict.fromkeys(formats)
    ]


def export_journey(document: object, formats: Iterable[str]) -> list[ExportedFile]:
    """Check ``document`` as compile does, then export it. Raises :class:`AutomiumError`
    with every problem of a journey compile refuses: an invalid journey exports nothing."""
    checked = check_journey(document)
    if checked.problems:
        raise AutomiumError(checked.problems)
    assert isinstance(document, dict)  # a valid journey: an object, followed page by page
    assert checked.walk is not None
    if checked.expansion is not None:
        expansion = checked.expansion
        expanded = whole_numbers(expansion.document)
        return exported_files(expanded, checked.walk, formats, expansion.prefix)
    return exported_files(whole_numbers(document), checked.walk, formats)
