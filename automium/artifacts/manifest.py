"""Build a run's artifact manifest from caller-supplied entries (nothing is read or written).

An entry needs only a kind and a path. Its content type is inferred from the kind and the
path's extension when it is not given, and refused when it contradicts them (a screenshot
declared ``text/plain``). With a verdict, the manifest reports the kinds that verdict
requires (the replay summary's table) and the ones no entry has. With a journey (a
reference journey's id, or the journey itself, checked as compile checks it), every
entry's ``stepId`` must name one of its steps.
"""

from __future__ import annotations

from collections.abc import Mapping

from automium import corpus
from automium.artifacts.levels import not_recorded
from automium.artifacts.paths import collision_key, directories, path_problem
from automium.contracts import (
    ArtifactEntry,
    ArtifactManifest,
    ArtifactManifestInput,
    ErrorCode,
    EvidenceLevel,
    Journey,
    to_document,
)
from automium.errors import AutomiumError, Problem, pointer, quoted
from automium.journeys import with_nested_journey
from automium.journeys.composition import run_step_ids
from automium.replay.summary import required_kinds
from automium.validation import check, to_model

# Media types each kind may have, by extension; the first is what an extension infers.
CONTENT_TYPES: Mapping[str, Mapping[str, tuple[str, ...]]] = {
    "screenshot": {
        ".png": ("image/png",),
        ".jpg": ("image/jpeg",),
        ".jpeg": ("image/jpeg",),
        ".webp": ("image/webp",),
    },
    "video": {".webm": ("video/webm",), ".mp4": ("video/mp4",)},
    "trace": {".zip": ("application/zip",)},
    "semantic-snapshot": {
        ".json": ("application/json",),
        ".yml": ("application/yaml",),
        ".yaml": ("application/yaml",),
    },
    "dom-snapshot": {".html": ("text/html",), ".mhtml": ("multipart/related",)},
    "replay-log": {
        ".jsonl": ("application/jsonl", "application/x-ndjson"),
        ".ndjson": ("application/x-ndjson", "application/jsonl"),
        ".json": ("application/json",),
    },
    "console-log": {
        ".log": ("text/plain",),
        ".txt": ("text/plain",),
        ".jsonl": ("application/jsonl",),
    },
    "network-har": {
        ".har": ("application/json", "application/har+json"),
        ".json": ("application/json",),
    },
    "planner-transcript": {
        ".jsonl": ("application/jsonl",),
        ".json": ("application/json",),
        ".md": ("text/markdown",),
        ".txt": ("text/plain",),
    },
}


def build_manifest(document: object) -> ArtifactManifest:
    """The manifest of ``document`` (raw arguments), or every problem of it."""
    request = _checked(document)
    journey = _journey(request)
    problems: list[Problem] = _journey_contradictions(request, journey)
    if root_problem := path_problem(request.root, "/root"):
        problems.append(root_problem)
    entries = []
    files: dict[str, int] = {}  # the entry first using each collision key, as a file
    folders: dict[str, int] = {}  # and as a directory
    for index, given in enumerate(request.entries):
        where = pointer("entries", index)
        problems += _path_problems(given.path, index, request, files, folders)
        content_type = _content_type(given.kind.value, given.path, given.content_type, where)
        if isinstance(content_type, Problem):
            problems.append(content_type)
        if journey is not None and given.step_id is not None:
            steps = run_step_ids(to_document(journey))
            if given.step_id not in steps:
                problems.append(
                    Problem(
                        ErrorCode.UNKNOWN_STEP,
                        f"{quoted(given.step_id)} is not a step of journey {journey.id}",
                        f"{where}/stepId",
                        tuple(steps),
                    )
                )
        if not problems:
            entries.append(
                ArtifactEntry.model_validate(
                    {
                        **given.model_dump(by_alias=True, exclude_none=True),
                        "contentType": content_type,
                    }
                )
            )
    if problems:
        raise AutomiumError(problems)
    coverage: dict[str, object] = {}
    if request.verdict is not None:
        required = required_kinds(request.verdict, request.retry_count or 0)
        present = {entry.kind for entry in entries}
        # A kind the run's evidence level left out is not recorded, never missing.
        left_out = [
            kind
            for kind in not_recorded(request.evidence_level or EvidenceLevel.FULL, request.verdict)
            if kind not in present
        ]
        coverage = {
            "required_kinds": required,
            "missing_kinds": [k for k in required if k not in present and k not in left_out],
        }
        if request.evidence_level is not None:
            coverage["not_recorded"] = left_out
    return ArtifactManifest(
        schema_version="automium.artifact-manifest/v1",
        run_id=request.run_id,
        root=request.root,
        entries=entries,
        **coverage,
    )


def _journey_contradictions(
    request: ArtifactManifestInput, journey: Journey | None
) -> list[Problem]:
    """A ``journeyId`` that is not the given journey's id, and a root under another app's
    folder (``artifacts/<appId>/…``) than the journey's."""
    found = []
    if request.journey is not None and request.journey_id not in (None, request.journey.id):
        found.append(
            Problem(
                ErrorCode.JOURNEY_ID_MISMATCH,
                f"journeyId {quoted(request.journey_id)} is not the id of the journey given "
                f"({quoted(request.journey.id)}); give one of the two, or make them agree",
                "/journeyId",
                (request.journey.id,),
            )
        )
    segments = request.root.split("/")
    if (
        journey is not None
        and len(segments) > 1
        and segments[0] == "artifacts"
        and segments[1] in corpus.app_ids()
        and segments[1] != journey.app_id
    ):
        found.append(
            Problem(
                ErrorCode.ARTIFACT_ROOT_APP_MISMATCH,
                f"root {quoted(request.root)} is the artifact folder of app "
                f"{quoted(segments[1])}, but journey {journey.id} is of app "
                f"{quoted(journey.app_id)}",
                "/root",
            )
        )
    return found


def _checked(document: object) -> ArtifactManifestInput:
    found = check("artifact-manifest-input.v1", document, corpus.vocabularies())
    problems = with_nested_journey(found, document)
    if problems:
        raise AutomiumError(problems)
    return to_model(ArtifactManifestInput, document)


def _journey(request: ArtifactManifestInput) -> Journey | None:
    if request.journey is not None:
        return request.journey
    if request.journey_id is None:
        return None
    reference = next((j for j in corpus.reference_journeys() if j.id == request.journey_id), None)
    if reference is None:
        raise AutomiumError.single(
            ErrorCode.UNKNOWN_JOURNEY,
            f"{quoted(request.journey_id)} is no reference journey; name one by its id, or pass "
            "the run's journey in journey",
            "/journeyId",
            [j.id for j in corpus.reference_journeys()],
        )
    return reference


def _path_problems(
    path: str,
    index: int,
    request: ArtifactManifestInput,
    files: dict[str, int],
    folders: dict[str, int],
) -> list[Problem]:
    where = pointer("entries", index, "path")
    if problem := path_problem(path, where):
        return [problem]
    key = collision_key(path)
    if key in files:
        earlier = request.entries[files[key]].path
        if earlier == path:
            message = f"path {quoted(path)} is already used by entry {files[key]}"
            return [Problem(ErrorCode.INVALID_INPUT, message, where)]
        return [
            Problem(
                ErrorCode.INVALID_ARTIFACT_PATH,
                f"path {quoted(path)} and entry {files[key]}'s {quoted(earlier)} would be one "
                "file on a file system that folds case or Unicode forms",
                where,
            )
        ]
    clash = folders.get(key, next((files[d] for d in directories(key) if d in files), None))
    if clash is not None:
        return [
            Problem(
                ErrorCode.INVALID_ARTIFACT_PATH,
                f"path {quoted(path)} and entry {clash}'s {quoted(request.entries[clash].path)} "
                "need one name as a file and as a directory (case and Unicode forms folded)",
                where,
            )
        ]
    files[key] = index
    for folder in directories(key):
        folders.setdefault(folder, index)
    return []


def _content_type(kind: str, path: str, given: str | None, where: str) -> str | Problem:
    """The entry's media type: the one given, if it fits the kind and extension, or the one
    they infer."""
    by_extension = CONTENT_TYPES[kind]
    extension = next((e for e in by_extension if path.lower().endswith(e)), None)
    fitting = (
        by_extension[extension]
        if extension
        else tuple(t for ts in by_extension.values() for t in ts)
    )
    if given is not None:
        if given in fitting:
            return given
        return Problem(
            ErrorCode.CONTENT_TYPE_MISMATCH,
            f"a {kind} at {quoted(path)} cannot be {given}",
            f"{where}/contentType",
            tuple(dict.fromkeys(fitting)),
        )
    if extension is None:
        return Problem(
            ErrorCode.INVALID_INPUT,
            f"no content type can be inferred for a {kind} at {quoted(path)}: give contentType, "
            f"or a path ending in {', '.join(by_extension)}",
            f"{where}/contentType",
            tuple(dict.fromkeys(fitting)),
        )
    return by_extension[extension][0]
