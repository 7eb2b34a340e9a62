"""``automium export JOURNEY --format ts|py --out DIR``: the one place export writes a file.

The renderer is pure; this adapter reads the journey (a reference journey id, or a file
holding exactly what compile takes), writes the one test file into ``DIR`` and says where.
A journey compile refuses writes nothing: its ``tool-error.v1`` document goes to stdout,
as the MCP answer would carry it, and the exit code is 2. The MCP server never imports this
module: the server writes no file.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TextIO

from automium import corpus
from automium.contracts import ErrorCode, to_document, to_json
from automium.errors import AutomiumError
from automium.export.files import export_journey


def load_journey(journey: str) -> object:
    """The journey document ``journey`` names: a reference journey's id, else a JSON file."""
    known = {j.id: j for j in corpus.reference_journeys()}
    if journey in known:
        return to_document(known[journey])
    path = Path(journey)
    if not path.is_file():
        raise AutomiumError.single(
            ErrorCode.UNKNOWN_JOURNEY,
            f"{journey!r} is neither a reference journey id nor a journey file",
            "",
            sorted(known),
        )
    try:
        document: object = json.loads(path.read_text("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise AutomiumError.single(
            ErrorCode.INVALID_INPUT, f"{journey} is not a JSON journey document: {exc}"
        ) from exc
    return document


def export_command(
    journey: str, fmt: str, out: str, stdout: TextIO = sys.stdout, stderr: TextIO = sys.stderr
) -> int:
    """Export ``journey`` as ``fmt`` into directory ``out``; the exit code (0, or 2 refused)."""
    try:
        (exported,) = export_journey(load_journey(journey), [fmt])
    except AutomiumError as exc:
        stdout.write(to_json(to_document(exc.to_tool_error())) + "\n")
        stderr.write(f"automium export: error {exc.code}: {exc.message}\n")
        return 2
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / exported.file_name
    target.write_text(exported.text, "utf-8")
    stdout.write(f"{target}\n")
    return 0
