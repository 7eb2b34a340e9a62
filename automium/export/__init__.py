"""Export a checked journey as a test file a team keeps: ``@playwright/test`` TypeScript
or pytest with Playwright for Python.

Pure text: nothing here imports Playwright, runs a test or writes a file, so the MCP server
may answer with exported files. :func:`exported_files` renders the journey compile has
just checked, from the walk it made; :func:`export_journey` checks it first.
"""

from automium.export.files import FORMATS, ExportedFile, export_journey, exported_files

__all__ = ["FORMATS", "ExportedFile", "export_journey", "exported_files"]
