"""A run's directory: the only place a run writes, and the manifest of what it holds.

The run directory is ``<out>/<run id>``. It is made fresh for each run: a directory of the
same id is refused unless the run may overwrite it, and then only an earlier run's own files
are deleted (:mod:`.outputs`); a symlink in its place is refused. Every file is
written through :meth:`RunDir.path`, which refuses a path the artifact rules refuse and any
symlink between the run directory and the file, and files are opened without following a
symlink. Each artifact is recorded with its kind, step, real size and SHA-256, and
:meth:`RunDir.manifest` builds ``artifact-manifest.v1`` through the same domain code as
``automium_get_artifact_manifest``.

A run cut off (a signal, the browser gone, a full disk) still ends with a manifest: it lists
every file the run left, each under the kind its place in the directory gives, and says
what cut it off (``interrupted``).
"""

from __future__ import annotations

import errno
import hashlib
import os
import signal
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from automium.artifacts.manifest import build_manifest
from automium.artifacts.paths import path_problem
from automium.contracts import ErrorCode, to_document
from automium.errors import AutomiumError, quoted
from automium.execution.outputs import MANIFEST, check_run_dir, clear_run, earlier_run

Json = dict[str, Any]


class UnsafeRunDir(OSError):
    """The run directory, or a path in it, would lead outside it."""


class Interrupted(BaseException):
    """SIGTERM, raised where the run is, as SIGINT raises ``KeyboardInterrupt``: not an
    ``Exception``, so no handler of a step's errors takes it for one."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


class DiskFull(OSError):
    """A run's file could not be written for lack of space; what the run left is said."""

    def __init__(self, folder: Path, files: int, manifest: bool) -> None:
        super().__init__(errno.ENOSPC, os.strerror(errno.ENOSPC))
        kept = "its manifest, marked interrupted, lists them" if manifest else "no manifest fit"
        self.left = f"the run directory {folder} holds the {files} files it left; {kept}"


def raise_interrupted(signum: int, _frame: object) -> None:
    """A SIGTERM handler: the run stops where it is, and ends as an interrupted run."""
    raise Interrupted(signum)


# The kinds of the files a run leaves, by where they are: how a cut-off run's manifest lists
# the files it had not recorded yet.
_LEFT_KINDS = (
    ("screenshots/", "screenshot"),
    ("snapshots/", "semantic-snapshot"),
    ("trace", "trace"),
    ("dom/", "dom-snapshot"),
    ("network.har", "network-har"),
    ("console.log", "console-log"),
    ("planner-transcript.jsonl", "planner-transcript"),
    ("replay.jsonl", "replay-log"),
    ("video.webm", "video"),
)


@dataclass
class RunDir:
    root: Path  # where run directories go (--out, or the fixture's artifact root)
    run_id: str
    manifest_root: str  # the fixture's artifactRoot, as the manifest names it
    entries: list[Json] = field(default_factory=list)
    overwrite: bool = False  # an earlier run's directory of this id may be replaced
    evidence_level: str = "full"  # what the run records: the manifest says what it left out

    @property
    def folder(self) -> Path:
        return self.root / self.run_id

    def create(self) -> RunDir:
        self.root.mkdir(parents=True, exist_ok=True)
        folder = self.folder
        check_run_dir(folder, overwrite=self.overwrite)  # again: it may have appeared since
        if folder.is_dir():
            clear_run(folder, earlier_run(folder))
            return self
        try:
            folder.mkdir()
        except FileExistsError:
            raise AutomiumError.single(
                ErrorCode.OUTPUT_TAKEN,
                f"the run directory {quoted(str(folder), limit=4096)} appeared as the run began",
                "/out",
            ) from None
        return self

    def path(self, relative: str) -> Path:
        """Where ``relative`` goes: inside the run directory, through no symlink."""
        if problem := path_problem(relative, "/path"):
            raise UnsafeRunDir(f"{relative!r}: {problem.message}")
        target = self.folder
        for part in relative.split("/"):
            if target.is_symlink():
                raise UnsafeRunDir(f"{target} is a symlink")
            target = target / part
        if target.is_symlink():
            raise UnsafeRunDir(f"{target} is a symlink")
        target.parent.mkdir(parents=True, exist_ok=True)
        return target

    def write(self, relative: str, data: bytes) -> Path:
        target = self.path(relative)
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
        descriptor = os.open(target, flags, 0o644)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
        return target

    def record(self, kind: str, relative: str, step_id: str | None = None) -> Json:
        """Add the file at ``relative`` (already written) as an artifact of ``kind``."""
        target = self.path(relative)
        data = target.read_bytes()
        entry: Json = {
            "kind": kind,
            "path": relative,
            "sizeBytes": len(data),
            "sha256": hashlib.sha256(data).hexdigest(),
        }
        if step_id is not None:
            entry["stepId"] = step_id
        self.entries = [e for e in self.entries if e["path"] != relative]
        self.entries.append(entry)
        return entry

    def manifest_input(self, verdict: str, retry_count: int, journey: Json) -> Json:
        """What ``automium_get_artifact_manifest`` takes for this run."""
        return {
            "runId": self.run_id,
            "root": self.manifest_root,
            "entries": self.entries,
            "verdict": verdict,
            "retryCount": retry_count,
            "evidenceLevel": self.evidence_level,
            "journey": journey,
        }

    def manifest(self, verdict: str, retry_count: int, journey: Json) -> Json:
        return to_document(build_manifest(self.manifest_input(verdict, retry_count, journey)))

    def record_left(self) -> None:
        """Record every file in the run directory not recorded yet (a cut-off run's)."""
        recorded = {e["path"] for e in self.entries}
        for path in self.files():
            relative = path.relative_to(self.folder).as_posix()
            kind = next((k for prefix, k in _LEFT_KINDS if relative.startswith(prefix)), None)
            if relative not in recorded and relative != MANIFEST and kind is not None:
                self.record(kind, relative)

    def files(self) -> Sequence[Path]:
        return sorted(p for p in self.folder.rglob("*") if p.is_file())
