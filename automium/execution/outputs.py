"""Where ``automium run`` may write, checked before any browser starts.

A run directory is ``<out>/<run id>``, and run ids are deterministic, so a second run of a
journey meets the first one's directory. The policy is a refusal (``output_taken``) unless
``--overwrite`` is given, and even then only a directory whose ``manifest.json`` is
Automium's own manifest of that run, holding no file the manifest does not list: only the
listed files are deleted, never the directory tree, so a file Automium did not write is
never lost. A new suffix was the other choice; it was not taken because the id is how a
user (and ``automium_get_replay_summary``) names a run, and a run that quietly lands in
``<id>-2`` leaves the old evidence looking current.

``--out`` that is a file, lies on a read-only file system or below a file, ``--trials-out``
(or ``--junit``) in a folder that does not exist, and a run directory that is a symlink are
refused as ``unwritable_output``, a full disk as ``disk_full``: each before the browser
starts, as a ``tool-error.v1`` document with exit code 2.
"""

from __future__ import annotations

import errno
import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

from automium.contracts import ErrorCode
from automium.errors import AutomiumError, quoted

MANIFEST = "manifest.json"
MANIFEST_VERSION = "automium.artifact-manifest/v1"


def _shown(path: Path) -> str:
    """A path in a message: whole (a user needs all of it to find it), escaped as JSON."""
    return quoted(str(path), limit=4096)


def unwritable(message: str, path: str, error: OSError | None = None) -> AutomiumError:
    """The refusal of an output that cannot be written; a full disk has its own code."""
    if error is not None and error.errno == errno.ENOSPC:
        return AutomiumError.single(ErrorCode.DISK_FULL, f"{message}: the disk is full", path)
    reason = f": {error.strerror}" if error is not None and error.strerror else ""
    return AutomiumError.single(ErrorCode.UNWRITABLE_OUTPUT, message + reason, path)


def check_folder(root: Path, option: str) -> None:
    """``root`` is, or can be made, a folder this process can write in."""
    where = f"/{option.removeprefix('--')}"
    existing = root
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise unwritable(f"{option} {_shown(root)}: {_shown(existing)} is a file", where)
    try:
        probe = tempfile.mkdtemp(prefix=".automium-probe-", dir=existing)
        os.rmdir(probe)
    except OSError as error:
        raise unwritable(f"{option} {_shown(root)} cannot be written", where, error) from None


def check_file(path: Path, option: str, *, overwrite: bool) -> None:
    """A file an option names (``--trials-out``, ``--junit``) can be written: its folder
    exists, it is no folder or symlink, and it does not exist unless ``overwrite``."""
    where = f"/{option.removeprefix('--')}"
    if path.is_symlink() or path.is_dir():
        kind = "a symlink" if path.is_symlink() else "a folder"
        raise unwritable(f"{option} {_shown(path)} is {kind}, not a file", where)
    if not path.parent.is_dir():
        raise unwritable(
            f"{option} {_shown(path)}: the folder {_shown(path.parent)} does not exist", where
        )
    if path.exists() and not overwrite:
        raise AutomiumError.single(
            ErrorCode.OUTPUT_TAKEN, f"{option} {_shown(path)} exists: give --overwrite", where
        )
    check_folder(path.parent, option)


def check_run_dir(folder: Path, *, overwrite: bool) -> None:
    """The run directory can be made, or (with ``overwrite``) holds only an earlier run."""
    if folder.is_symlink():
        raise unwritable(
            f"{_shown(folder)} is a symlink; a run writes only in a real directory", "/out"
        )
    if not folder.exists():
        return
    if not overwrite:
        raise AutomiumError.single(
            ErrorCode.OUTPUT_TAKEN,
            f"the run directory {_shown(folder)} exists: give --overwrite to replace an "
            "earlier run there, or another --out",
            "/out",
        )
    earlier_run(folder)


def earlier_run(folder: Path) -> list[Path]:
    """The files of the run ``folder`` holds, as its own manifest lists them; refused when
    the folder is not such a run or holds any other file."""
    taken = f"the run directory {_shown(folder)}"
    try:
        manifest = json.loads((folder / MANIFEST).read_text("utf-8"))
    except (OSError, ValueError):
        manifest = None
    if (
        not isinstance(manifest, dict)
        or manifest.get("schemaVersion") != MANIFEST_VERSION
        or manifest.get("runId") != folder.name
    ):
        raise AutomiumError.single(
            ErrorCode.OUTPUT_TAKEN,
            f"{taken} holds no manifest of run {folder.name}, so it is not replaced even with "
            "--overwrite: give another --out",
            "/out",
        )
    listed = {folder / MANIFEST, *(folder / str(e.get("path")) for e in manifest["entries"])}
    found = [p for p in sorted(folder.rglob("*")) if p.is_symlink() or not p.is_dir()]
    foreign = [p.relative_to(folder).as_posix() for p in found if p not in listed]
    if foreign:
        raise AutomiumError.single(
            ErrorCode.OUTPUT_TAKEN,
            f"{taken} holds files its manifest does not list ({', '.join(foreign[:5])}), so it "
            "is not replaced even with --overwrite: move them, or give another --out",
            "/out",
        )
    return found


def clear_run(folder: Path, files: Sequence[Path]) -> None:
    """Delete an earlier run's own files, then the folders they leave empty."""
    for path in files:
        path.unlink()
    for sub in sorted((p for p in folder.rglob("*") if p.is_dir()), reverse=True):
        sub.rmdir()
