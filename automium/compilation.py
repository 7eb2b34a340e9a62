"""What ``automium_compile_journey`` answers: a journey checked and compiled to its graph
(:mod:`automium.journeys`), with its Playwright tests as text when the call asks for them
(:mod:`automium.export`).

It sits above both: the exporter reads checked journeys, so the journey package never
imports the exporter, and nothing imports in a circle.
"""

from __future__ import annotations

from typing import Any

from automium.journeys.checked import checked_journey
from automium.journeys.compiler import compilation_of


def compilation_document(document: object) -> dict[str, Any]:
    """The ``journey-compilation.v1`` document of a journey document (what compile answers),
    or :class:`AutomiumError` with every problem."""
    journey = checked_journey(document)
    compilation = compilation_of(journey)
    if journey.document.get("export"):
        # Imported here: only an export needs the renderers.
        from automium.export import exported_files  # noqa: PLC0415

        files = exported_files(journey.document, journey.walk, journey.document["export"])
        compilation["exports"] = [f.document() for f in files]
    return compilation
