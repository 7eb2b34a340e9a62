"""Artifact manifests: kinds from the frozen vocabulary, paths that are canonical relative
POSIX paths which cannot escape the artifact root, however they are spelled, content types
that fit the kind and extension, steps of the run's journey, and the evidence a verdict
requires that the entries lack."""

from __future__ import annotations

import posixpath
import unicodedata
from typing import Any
from urllib.parse import unquote

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from syrupy.assertion import SnapshotAssertion

from automium.artifacts import MAX_PATH_LENGTH, path_problem
from automium.artifacts.manifest import CONTENT_TYPES
from automium.capabilities import BY_NAME
from automium.contracts import ArtifactManifest, ErrorCode, RunSubmission, to_document
from automium.validation import check
from tests.answers import answered
from tests.cases import (
    FAILURE_CLASSES,
    MANIFEST,
    RUN_ID,
    SUBMISSION,
    WORKED_EXAMPLE,
    reference_journey,
    refusal,
    refused,
)

ROOT = MANIFEST["root"]
KINDS = (
    "screenshot",
    "video",
    "trace",
    "semantic-snapshot",
    "dom-snapshot",
    "replay-log",
    "console-log",
    "network-har",
    "planner-transcript",
)


def entry(path: str, kind: str = "screenshot", **extra: Any) -> dict[str, Any]:
    return {"kind": kind, "path": path, "contentType": "image/png", "sizeBytes": 1024, **extra}


GOOD_ENTRIES: list[dict[str, Any]] = MANIFEST["entries"]
BUILD = BY_NAME["automium_get_artifact_manifest"]
RUN = BY_NAME["automium_create_run_submission"]


def manifest_request(root: str = ROOT, entries: list[dict[str, Any]] | None = None) -> Any:
    return {"runId": RUN_ID, "root": root, "entries": GOOD_ENTRIES if entries is None else entries}


def build(document: object) -> ArtifactManifest:
    manifest = answered(BUILD, document)
    assert isinstance(manifest, ArtifactManifest)
    return manifest


# --- manifests ------------------------------------------------------------------------------


def test_a_manifest_keeps_the_entries_in_the_order_given() -> None:
    entries = [entry(f"steps/{n}/shot.png") for n in ("c", "a", "b")]

    manifest = build(manifest_request(entries=entries))

    assert [e.path for e in manifest.entries] == [
        "steps/c/shot.png",
        "steps/a/shot.png",
        "steps/b/shot.png",
    ]


def test_a_manifest_without_entries_is_accepted() -> None:
    assert build(manifest_request(entries=[])).entries == []


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_of_the_vocabulary_is_accepted_with_the_media_type_its_extension_infers(
    kind: str,
) -> None:
    extension, (inferred, *_) = next(iter(CONTENT_TYPES[kind].items()))
    given = {"kind": kind, "path": f"artifact{extension}", "sizeBytes": 1}

    manifest = build(manifest_request(entries=[given]))

    assert (manifest.entries[0].kind.value, manifest.entries[0].content_type) == (kind, inferred)


def test_an_unknown_kind_is_refused_at_its_entry_with_the_nine_kinds_allowed() -> None:
    entries = [*GOOD_ENTRIES, entry("report.pdf", kind="pdf")]

    problems = refused(BUILD.answer, manifest_request(entries=entries))

    assert [(p.code, p.path, p.allowed) for p in problems] == [
        (ErrorCode.INVALID_ARTIFACT_KIND, "/entries/2/kind", KINDS)
    ]


def test_a_path_used_twice_is_refused_at_its_second_use() -> None:
    entries = [*GOOD_ENTRIES, {**GOOD_ENTRIES[0], "sizeBytes": 1}]

    assert refusal(BUILD.answer, manifest_request(entries=entries)) == [
        (ErrorCode.INVALID_INPUT, "/entries/2/path")
    ]


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("a.png", "a.png/b.png"),
        ("a.png/b.png", "a.png"),
        ("dir.png", "DIR.PNG/b.png"),
        ("DIR.PNG/b.png", "dir.png"),
        ("steps/pay.png", "Steps/PAY.png/shot.png"),
        ("\uff44ir.png", "dir.png/b.png"),  # a full-width d: one name once NFKC-folded
    ],
)
def test_a_file_and_a_directory_of_one_name_are_refused_at_the_later_entry(
    first: str, second: str
) -> None:
    entries = [entry(first), entry(second)]
    assert refusal(BUILD.answer, manifest_request(entries=entries)) == [
        (ErrorCode.INVALID_ARTIFACT_PATH, "/entries/1/path")
    ]


def test_a_segment_of_255_bytes_and_names_in_one_folder_are_accepted() -> None:
    entries = [entry("steps/" + "a" * 251 + ".png"), entry("steps/b.png"), entry("steps/c.png")]
    assert build(manifest_request(entries=entries)).entries


# --- path rules -----------------------------------------------------------------------------

BAD_PATHS: list[tuple[str, str]] = [
    ("absolute", "/etc/passwd"),
    ("parent segment first", "../x"),
    ("parent segment inside", "a/../b"),
    ("parent segment last", "a/.."),
    ("backslash", "a\\b"),
    ("drive letter with slash", "C:/x"),
    ("drive-relative", "c:x"),
    ("unc with slashes", "//server/share"),
    ("unc with backslashes", "\\\\server\\share"),
    ("url", "https://x/y"),
    ("file url", "file:///etc"),
    ("home", "~/x"),
    ("home user segment", "~a"),
    ("home segment inside", "a/~b"),
    ("empty segment", "a//b"),
    ("trailing slash", "a/"),
    ("current segment", "./a"),
    ("nul", "a\x00b"),
    ("unit separator", "a\x1fb"),
    ("delete", "a\x7fb"),
    ("c1 control", "a\x85b"),
    ("percent-encoded parent", "%2e%2e/x"),
    ("percent-encoded parent inside, upper case", "a/%2E%2E/b"),
    ("percent-encoded slash making absolute", "%2Fetc/passwd"),
    ("percent-encoded backslash", "a%5cb"),
    ("full-width dots", "\uff0e\uff0e/x"),
    ("one-dot leaders", "a/\u2024\u2024/b"),
    ("percent-encoded with full-width letters", "%2\uff45%2\uff45/x"),
    ("full-width percent-encoded slash", "\uff05\uff12\uff26etc/passwd"),
    ("percent-encoded full-width dots", "%EF%BC%8E%EF%BC%8E/x"),
    ("513 bytes in fewer characters", "é" * 256 + "a"),
    ("600 characters", "a" * 600),
    ("empty", ""),
    # Windows drops a trailing dot or space, so these would name another file there.
    ("only dots", "..."),
    ("segment ending in a dot", "a/b."),
    ("segment ending in a space", "a /b"),
    # A reader may decode it and find another path.
    ("percent-encoded letter", "a%2fb"),
    # Windows refuses these in a file name; a segment over 255 bytes fits no file system.
    *((f"windows-illegal {c!r}", f"steps/a{c}b.png") for c in '|*?<>":'),
    ("a 256-byte segment", "steps/" + "a" * 252 + ".png"),
    ("a 259-character segment", "a" * 259),
    ("a 128-character segment of 2-byte characters", "é" * 128),
]


@pytest.mark.parametrize("path", [pytest.param(p, id=name) for name, p in BAD_PATHS])
def test_a_bad_entry_path_is_refused_at_that_entrys_index(path: str) -> None:
    entries = [*GOOD_ENTRIES, entry(path)]

    assert refusal(BUILD.answer, manifest_request(entries=entries)) == [
        (ErrorCode.INVALID_ARTIFACT_PATH, "/entries/2/path")
    ]


@pytest.mark.parametrize("path", [pytest.param(p, id=name) for name, p in BAD_PATHS])
def test_a_bad_root_is_refused_by_the_same_rules(path: str) -> None:
    assert refusal(BUILD.answer, manifest_request(root=path)) == [
        (ErrorCode.INVALID_ARTIFACT_PATH, "/root")
    ]


@pytest.mark.parametrize("path", [pytest.param(p, id=name) for name, p in BAD_PATHS])
def test_the_path_rule_refuses_each_bad_path_at_the_callers_pointer(path: str) -> None:
    problem = path_problem(path, "/somewhere/3")

    assert problem is not None
    assert (problem.code, problem.path) == (ErrorCode.INVALID_ARTIFACT_PATH, "/somewhere/3")


def test_every_bad_entry_path_and_a_bad_root_are_reported_together() -> None:
    entries = [
        entry("../a"),
        *GOOD_ENTRIES,
        entry("/b"),
        entry(GOOD_ENTRIES[1]["path"]),
        entry("c\\d"),
    ]

    assert refusal(BUILD.answer, manifest_request(root="~/artifacts", entries=entries)) == [
        (ErrorCode.INVALID_ARTIFACT_PATH, "/entries/0/path"),
        (ErrorCode.INVALID_ARTIFACT_PATH, "/entries/3/path"),
        (ErrorCode.INVALID_INPUT, "/entries/4/path"),
        (ErrorCode.INVALID_ARTIFACT_PATH, "/entries/5/path"),
        (ErrorCode.INVALID_ARTIFACT_PATH, "/root"),
    ]


def test_every_contract_problem_of_the_entries_is_reported_together() -> None:
    entries = [entry("a" * 600), *GOOD_ENTRIES, entry("report.pdf", kind="pdf"), entry("")]

    assert refusal(BUILD.answer, manifest_request(entries=entries)) == [
        (ErrorCode.INVALID_ARTIFACT_PATH, "/entries/0/path"),
        (ErrorCode.INVALID_ARTIFACT_KIND, "/entries/3/kind"),
        (ErrorCode.INVALID_ARTIFACT_PATH, "/entries/4/path"),
    ]


GOOD_PATHS = [
    "steps/pay/screenshot.png",
    "replay.jsonl",
    "a.b/c-d_e.txt",
    "a~",
    ".hidden/file",
    "ünïcødé/ファイル.png",
    "50% off.png",
    "é" * 127,  # 254 bytes: a segment may have 255
    "/".join(["é" * 127, "é" * 127]),
    "/".join(["a" * 255, "a" * 254, "a" * (MAX_PATH_LENGTH - 511)]),  # 512 bytes
]


@pytest.mark.parametrize("path", GOOD_PATHS)
def test_a_canonical_relative_path_is_accepted(path: str) -> None:
    assert path_problem(path, "/path") is None
    assert build(manifest_request(root=path, entries=[entry(path)])).root == path


# --- properties -----------------------------------------------------------------------------

_TRICKY = st.sampled_from(
    [
        *"./\\~%:abC2eE5cfF\x00\x1f",
        *"\uff0e\u2024\u2025\ufe52\u3002\uff0f\uff3c\u2215",  # dots, slashes that fold
    ]
)
# Plain segments do not end in a dot: Windows would drop it.
_SEGMENTS = st.from_regex(r"[A-Za-z0-9_-]([A-Za-z0-9._~-]{0,11}[A-Za-z0-9_~-])?", fullmatch=True)


def _stays_inside_and_is_canonical(path: str) -> None:
    if path_problem(path, "/x") is None:
        assert posixpath.normpath(posixpath.join("root", path)) == "root/" + path


@given(st.text())
@example("a/b")
@example("..")
def test_any_accepted_path_is_canonical_and_inside_the_root(path: str) -> None:
    _stays_inside_and_is_canonical(path)


@given(st.text(_TRICKY, max_size=16))
def test_any_accepted_adversarial_path_is_canonical_and_inside_the_root(path: str) -> None:
    _stays_inside_and_is_canonical(path)


@given(st.lists(st.one_of(_SEGMENTS, st.text(_TRICKY, max_size=4)), max_size=6))
def test_any_accepted_path_of_segments_is_canonical_and_inside_the_root(
    segments: list[str],
) -> None:
    _stays_inside_and_is_canonical("/".join(segments))


def _spellings(path: str) -> set[str]:
    """What a reader might take ``path`` for: percent-decoded, NFKC-folded, or both."""
    folded, decoded = unicodedata.normalize("NFKC", path), unquote(path)
    return {path, folded, decoded, unquote(folded), unicodedata.normalize("NFKC", decoded)}


@given(st.text(_TRICKY, max_size=16))
@example("%2\uff45%2\uff45/x")
@example("%EF%BC%8E%EF%BC%8E/x")
def test_no_spelling_of_an_accepted_path_escapes_the_root(path: str) -> None:
    if path_problem(path, "/x") is None:
        for spelling in _spellings(path):
            _stays_inside_and_is_canonical(spelling)
            assert "\\" not in spelling


@given(st.lists(_SEGMENTS, min_size=1, max_size=8))
def test_a_path_of_plain_segments_is_always_accepted(segments: list[str]) -> None:
    assert path_problem("/".join(segments), "/x") is None


@given(st.text())
def test_the_path_rule_refuses_only_with_invalid_artifact_path(path: str) -> None:
    problem = path_problem(path, "/entries/7/path")

    assert problem is None or (problem.code, problem.path, problem.allowed) == (
        ErrorCode.INVALID_ARTIFACT_PATH,
        "/entries/7/path",
        (),
    )


# --- coverage of the verdict --------------------------------------------------------------

# What a run of the worked example would have left: a screenshot after paying, the replay log.
SHOT_AND_LOG: list[dict[str, Any]] = [
    {"kind": "screenshot", "path": "steps/pay/after.png", "stepId": "pay"},
    {"kind": "replay-log", "path": "replay.jsonl"},
]
EVERY_OTHER_KIND = [k for k in KINDS if k not in ("screenshot", "replay-log")]

# verdict, retries -> (required kinds, missing kinds), as the replay summary's table has them.
COVERAGE: list[tuple[str, int | None, list[str], list[str]]] = [
    (
        "passed",
        None,
        ["screenshot", "semantic-snapshot", "replay-log"],
        ["semantic-snapshot"],
    ),
    (
        "passed",
        2,
        ["screenshot", "trace", "semantic-snapshot", "replay-log"],
        ["trace", "semantic-snapshot"],
    ),
    ("failed", 0, list(KINDS), EVERY_OTHER_KIND),
    ("failed", 1, list(KINDS), EVERY_OTHER_KIND),
    (
        "errored",
        0,
        ["trace", "replay-log", "console-log", "network-har", "planner-transcript"],
        ["trace", "console-log", "network-har", "planner-transcript"],
    ),
    (
        "blocked",
        0,
        ["semantic-snapshot", "replay-log", "planner-transcript"],
        ["semantic-snapshot", "planner-transcript"],
    ),
    (
        "blocked",
        1,
        ["trace", "semantic-snapshot", "replay-log", "planner-transcript"],
        ["trace", "semantic-snapshot", "planner-transcript"],
    ),
]


def covering(verdict: str, retry_count: int | None, entries: list[dict[str, Any]]) -> Any:
    document = {**manifest_request(entries=entries), "verdict": verdict}
    return document if retry_count is None else {**document, "retryCount": retry_count}


@pytest.mark.parametrize(
    ("verdict", "retry_count", "required", "missing"),
    [pytest.param(*row, id=f"{row[0]}, {row[1]} retries") for row in COVERAGE],
)
def test_a_manifest_names_the_kinds_its_verdict_requires_and_the_entries_lack(
    verdict: str, retry_count: int | None, required: list[str], missing: list[str]
) -> None:
    manifest = build(covering(verdict, retry_count, SHOT_AND_LOG))

    assert [k.value for k in manifest.required_kinds or []] == required
    assert [k.value for k in manifest.missing_kinds or []] == missing


@pytest.mark.parametrize("verdict", ["passed", "failed", "errored", "blocked"])
def test_a_manifest_with_an_entry_of_every_kind_misses_nothing(verdict: str) -> None:
    entries = [
        {"kind": kind, "path": f"evidence/{kind}{next(iter(CONTENT_TYPES[kind]))}"}
        for kind in KINDS
    ]

    document = to_document(build(covering(verdict, 3, entries)))

    # Present and empty: the evidence is complete, not unknown.
    assert document["missingKinds"] == []


LOGS = [
    {"kind": "replay-log", "path": "replay.jsonl"},
    {"kind": "console-log", "path": "console.log"},
    {"kind": "planner-transcript", "path": "planner-transcript.jsonl"},
]
HEAVY = ["screenshot", "trace", "semantic-snapshot", "dom-snapshot", "network-har"]

# level, verdict -> the kinds a run that kept only its logs did not record.
LEFT_OUT: list[tuple[str, str, list[str]]] = [
    ("verdict", "passed", HEAVY),
    ("verdict", "failed", ["screenshot", "video", *HEAVY[1:]]),
    ("verdict", "errored", HEAVY),
    ("verdict", "blocked", HEAVY),
    ("on-failure", "passed", HEAVY),
]


@pytest.mark.parametrize(
    ("level", "verdict", "left_out"),
    [pytest.param(*row, id=f"{row[0]}, {row[1]}") for row in LEFT_OUT],
)
def test_a_kind_the_evidence_level_left_out_is_not_recorded_never_missing(
    level: str, verdict: str, left_out: list[str]
) -> None:
    document = to_document(build({**covering(verdict, 1, LOGS), "evidenceLevel": level}))

    assert (document["notRecorded"], document["missingKinds"]) == (left_out, [])


@pytest.mark.parametrize("verdict", ["failed", "errored", "blocked"])
def test_on_failure_keeps_a_failed_runs_evidence_so_what_it_lacks_is_missing(
    verdict: str,
) -> None:
    document = to_document(build({**covering(verdict, 0, LOGS), "evidenceLevel": "on-failure"}))
    full = to_document(build(covering(verdict, 0, LOGS)))

    assert (document["notRecorded"], document["missingKinds"]) == ([], full["missingKinds"])


def test_a_left_out_kind_an_entry_holds_anyway_is_recorded() -> None:
    entries = [*LOGS, {"kind": "screenshot", "path": "screenshots/01-a.png"}]

    document = to_document(build({**covering("passed", 0, entries), "evidenceLevel": "verdict"}))

    assert document["notRecorded"] == HEAVY[1:]


def test_without_a_level_a_manifest_says_nothing_of_what_was_not_recorded() -> None:
    assert "notRecorded" not in to_document(build(covering("passed", 0, LOGS)))


def test_a_manifest_without_a_verdict_says_nothing_of_coverage() -> None:
    document = to_document(build({**manifest_request(entries=SHOT_AND_LOG), "retryCount": 2}))

    assert ("requiredKinds" in document, "missingKinds" in document) == (False, False)


@pytest.mark.parametrize(
    "failure_class",
    [None, *FAILURE_CLASSES],
)
def test_the_artifacts_a_modeled_timeline_captures_are_a_manifest_that_covers_its_verdict(
    failure_class: str | None,
) -> None:
    # The chain an agent walks: the timeline's artifact events, as manifest entries, media
    # types included (the timeline must not write one the manifest would refuse).
    failure = {"failure": {"stepId": "pay", "failureClass": failure_class}}
    run = answered(RUN, {**SUBMISSION, "includeEvents": True, **(failure if failure_class else {})})
    assert isinstance(run, RunSubmission)
    entries = [
        {k: e.payload[k] for k in ("kind", "path", "contentType")}
        for e in run.events or []
        if e.type == "artifact.captured"
    ]
    (finished,) = (e for e in run.events or [] if e.type == "run.finished")

    manifest = build(
        {
            "runId": run.run_id,
            "root": ROOT,
            "entries": entries,
            "verdict": run.timeline.verdict.value,
            "retryCount": finished.payload["retryCount"],
        }
    )

    assert (manifest.missing_kinds, len(manifest.entries)) == ([], len(entries))


# --- content types ------------------------------------------------------------------------

# kind, path -> the media type its extension infers.
INFERRED: list[tuple[str, str, str]] = [
    ("screenshot", "steps/pay/after.png", "image/png"),
    ("screenshot", "steps/pay/after.jpeg", "image/jpeg"),
    ("screenshot", "steps/pay/AFTER.PNG", "image/png"),  # extensions are read case-blind
    ("video", "video.mp4", "video/mp4"),
    ("trace", "trace.zip", "application/zip"),
    ("semantic-snapshot", "snapshots/checkout.yaml", "application/yaml"),
    ("dom-snapshot", "snapshots/checkout.mhtml", "multipart/related"),
    ("replay-log", "replay.ndjson", "application/x-ndjson"),
    ("console-log", "console.txt", "text/plain"),
    ("network-har", "network.har", "application/json"),
    ("planner-transcript", "planner-transcript.md", "text/markdown"),
]


@pytest.mark.parametrize(
    ("kind", "path", "content_type"), [pytest.param(*row, id=row[1]) for row in INFERRED]
)
def test_an_entry_without_a_content_type_gets_the_one_its_extension_infers(
    kind: str, path: str, content_type: str
) -> None:
    (inferred,) = build(manifest_request(entries=[{"kind": kind, "path": path}])).entries

    assert (inferred.path, inferred.content_type) == (path, content_type)


# kind, path, content type given: each fits, and is kept as given.
KEPT: list[tuple[str, str, str]] = [
    ("replay-log", "replay.jsonl", "application/x-ndjson"),
    ("network-har", "network.har", "application/har+json"),
    ("screenshot", "steps/pay/after", "image/webp"),  # no extension: any of the kind's types
]


@pytest.mark.parametrize(
    ("kind", "path", "content_type"), [pytest.param(*row, id=row[2]) for row in KEPT]
)
def test_a_content_type_that_fits_the_kind_and_extension_is_kept(
    kind: str, path: str, content_type: str
) -> None:
    entries = [{"kind": kind, "path": path, "contentType": content_type}]

    assert build(manifest_request(entries=entries)).entries[0].content_type == content_type


# kind, path, content type given -> the media types allowed instead (after the two good
# entries, so the refusal points at entry 2).
CONTRADICTIONS: list[tuple[str, str, str, tuple[str, ...]]] = [
    ("screenshot", "steps/pay/before.png", "text/plain", ("image/png",)),
    ("screenshot", "steps/pay/before.png", "image/jpeg", ("image/png",)),
    ("trace", "attempts/2/trace.zip", "application/json", ("application/zip",)),
    ("replay-log", "replay.jsonl", "text/plain", ("application/jsonl", "application/x-ndjson")),
    ("screenshot", "steps/pay/after", "text/plain", ("image/png", "image/jpeg", "image/webp")),
]


@pytest.mark.parametrize(
    ("kind", "path", "content_type", "allowed"),
    [pytest.param(*row, id=f"{row[0]} {row[1]} as {row[2]}") for row in CONTRADICTIONS],
)
def test_a_content_type_that_contradicts_the_kind_or_extension_is_refused(
    kind: str, path: str, content_type: str, allowed: tuple[str, ...]
) -> None:
    entries = [*GOOD_ENTRIES, {"kind": kind, "path": path, "contentType": content_type}]

    (problem,) = refused(BUILD.answer, manifest_request(entries=entries))

    assert (problem.code, problem.path, problem.allowed) == (
        ErrorCode.CONTENT_TYPE_MISMATCH,
        "/entries/2/contentType",
        allowed,
    )


@pytest.mark.parametrize(
    ("kind", "path", "allowed"),
    [
        ("screenshot", "steps/pay/after", ("image/png", "image/jpeg", "image/webp")),
        # An extension the kind never has infers nothing either.
        ("trace", "trace.png", ("application/zip",)),
    ],
)
def test_an_entry_whose_content_type_cannot_be_inferred_must_give_one(
    kind: str, path: str, allowed: tuple[str, ...]
) -> None:
    (problem,) = refused(BUILD.answer, manifest_request(entries=[{"kind": kind, "path": path}]))

    assert (problem.code, problem.path, problem.allowed) == (
        ErrorCode.INVALID_INPUT,
        "/entries/0/contentType",
        allowed,
    )


# --- steps --------------------------------------------------------------------------------

WORKED_STEPS = ("open-home", "search", "submit", "add", "checkout", "pay")


@pytest.mark.parametrize(
    "journey",
    [{"journeyId": WORKED_EXAMPLE}, {"journey": reference_journey()}],
    ids=["a reference journey named", "the journey given"],
)
def test_a_step_the_journey_lacks_is_refused_with_its_steps(journey: dict[str, Any]) -> None:
    entries = [
        *SHOT_AND_LOG,
        {"kind": "screenshot", "path": "steps/place/after.png", "stepId": "place"},
    ]

    (problem,) = refused(BUILD.answer, {**manifest_request(entries=entries), **journey})

    assert (problem.code, problem.path, problem.allowed) == (
        ErrorCode.UNKNOWN_STEP,
        "/entries/2/stepId",
        WORKED_STEPS,
    )


def test_without_a_journey_a_step_is_not_checked() -> None:
    entries = [{"kind": "screenshot", "path": "steps/place/after.png", "stepId": "place"}]

    assert build(manifest_request(entries=entries)).entries[0].step_id == "place"


def test_a_journey_id_that_names_no_reference_journey_is_refused() -> None:
    document = {**manifest_request(entries=SHOT_AND_LOG), "journeyId": "shop-lite.buy-two-mugs"}

    (problem,) = refused(BUILD.answer, document)

    assert (problem.code, problem.path) == (ErrorCode.UNKNOWN_JOURNEY, "/journeyId")
    assert WORKED_EXAMPLE in problem.allowed


def test_a_given_journey_is_refused_as_compile_refuses_it_under_journey() -> None:
    journey = reference_journey()
    journey["steps"][0] = {"id": "open-home", "intent": "navigate", "route": "admin"}

    assert refusal(BUILD.answer, {**manifest_request(), "journey": journey}) == [
        (ErrorCode.UNKNOWN_ROUTE, "/journey/steps/0/route")
    ]


def test_every_problem_of_the_entries_is_reported_at_once_in_path_order() -> None:
    entries = [
        {"kind": "screenshot", "path": "after.png", "contentType": "text/plain"},
        {"kind": "trace", "path": "trace"},
        {"kind": "replay-log", "path": "replay.jsonl", "stepId": "place"},
    ]

    document = {**manifest_request(entries=entries), "journeyId": WORKED_EXAMPLE}

    assert refusal(BUILD.answer, document) == [
        (ErrorCode.CONTENT_TYPE_MISMATCH, "/entries/0/contentType"),
        (ErrorCode.INVALID_INPUT, "/entries/1/contentType"),
        (ErrorCode.UNKNOWN_STEP, "/entries/2/stepId"),
    ]


# --- snapshot -----------------------------------------------------------------------------


def test_a_manifest_with_missing_kinds_matches_its_snapshot(
    snapshot_json: SnapshotAssertion,
) -> None:
    # The demo's manifest: the worked example's run, failed after one retry, with two of
    # the nine kinds that requires.
    run = answered(RUN, SUBMISSION)
    assert isinstance(run, RunSubmission)
    document = {
        **covering("failed", 1, SHOT_AND_LOG),
        "runId": run.run_id,
        "journeyId": WORKED_EXAMPLE,
    }

    manifest = to_document(build(document))

    assert check("artifact-manifest.v1", manifest) == []
    assert manifest == snapshot_json


def test_a_journey_id_that_is_not_the_given_journeys_is_refused() -> None:
    document = {
        **manifest_request(entries=SHOT_AND_LOG),
        "journeyId": "todo-mvc.add-and-complete",
        "journey": reference_journey(),
    }

    assert refusal(BUILD.answer, document) == [(ErrorCode.JOURNEY_ID_MISMATCH, "/journeyId")]


def test_a_root_under_another_apps_folder_than_the_journeys_is_refused() -> None:
    document = {
        **manifest_request(root="artifacts/todo-mvc/run-1", entries=SHOT_AND_LOG),
        "journeyId": WORKED_EXAMPLE,
    }

    assert refusal(BUILD.answer, document) == [(ErrorCode.ARTIFACT_ROOT_APP_MISMATCH, "/root")]
