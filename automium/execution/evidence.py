"""A run's directory: the only place a run writes, and the manifest of what it holds.

The run directory is ``<out>/<run id>``. It is made fresh for each run (an older run's
directory of the same id is replaced; a symlink in its place is refused), every file is
written through :meth:`RunDir.path`, which refuses a path the artifact rules refuse and any
symlink between the run directory and the file, and files are opened without following a
symlink. Each artifact is recorded with its kind, step, real size and SHA-256, and
:meth:`RunDir.manifest` builds ``artifact-manifest.v1`` through the same domain code as
``automium_get_artifact_manifest``.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from automium.artifacts.manifest import build_manifest
from automium.artifacts.paths import path_problem
from automium.contracts import to_document

Json = dict[str, Any]


class UnsafeRunDir(OSError):
    """The run directory, or a path in it, would lead outside it."""


@dataclass
class RunDir:
    root: Path  # where run directories go (--out, or the fixture's artifact root)
    run_id: str
    manifest_root: str  # the fixture's artifactRoot, as the manifest names it
    entries: list[Json] = field(default_factory=list)

    @property
    def folder(self) -> Path:
        return self.root / self.run_id

    def create(self) -> RunDir:
        self.root.mkdir(parents=True, exist_ok=True)
        folder = self.folder
        if folder.is_symlink():
            raise UnsafeRunDir(f"{folder} is a symlink; a run writes only in a real directory")
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir()
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
            "journey": journey,
        }

    def manifest(self, verdict: str, retry_count: int, journey: Json) -> Json:
        return to_document(build_manifest(self.manifest_input(verdict, retry_count, journey)))

    def files(self) -> Sequence[Path]:
        return sorted(p for p in self.folder.rglob("*") if p.is_file())
