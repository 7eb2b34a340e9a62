"""Build a run's artifact manifest from caller-supplied entries (nothing is read or written)."""

from __future__ import annotations

from automium.artifacts.paths import path_problem
from automium.contracts import ArtifactManifest, ArtifactManifestInput, ErrorCode
from automium.errors import AutomiumError, Problem, pointer


def build_manifest(request: ArtifactManifestInput) -> ArtifactManifest:
    problems: list[Problem] = []
    if root_problem := path_problem(request.root, "/root"):
        problems.append(root_problem)
    first_use: dict[str, int] = {}
    for index, entry in enumerate(request.entries):
        if entry_problem := path_problem(entry.path, pointer("entries", index, "path")):
            problems.append(entry_problem)
        elif entry.path in first_use:
            problems.append(
                Problem(
                    ErrorCode.INVALID_INPUT,
                    f"path {entry.path!r} is already used by entry {first_use[entry.path]}",
                    pointer("entries", index, "path"),
                )
            )
        first_use.setdefault(entry.path, index)
    if problems:
        raise AutomiumError(problems)
    return ArtifactManifest(
        schema_version="automium.artifact-manifest/v1",
        run_id=request.run_id,
        root=request.root,
        entries=list(request.entries),
    )
