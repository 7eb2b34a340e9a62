"""Artifact manifests: kinds from the frozen vocabulary, and paths that are canonical
relative POSIX paths which cannot escape the artifact root, however they are spelled."""

from __future__ import annotations

import posixpath
import unicodedata
from typing import Any
from urllib.parse import unquote

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from automium.artifacts import MAX_PATH_LENGTH, path_problem
from automium.artifacts.manifest import CONTENT_TYPES
from automium.capabilities import BY_NAME
from automium.contracts import ArtifactManifest, ErrorCode
from tests.cases import MANIFEST, RUN_ID, refusal, refused

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


def manifest_request(root: str = ROOT, entries: list[dict[str, Any]] | None = None) -> Any:
    return {"runId": RUN_ID, "root": root, "entries": GOOD_ENTRIES if entries is None else entries}


def build(document: object) -> ArtifactManifest:
    manifest = BUILD.run(document)
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

    problems = refused(BUILD.run, manifest_request(entries=entries))

    assert [(p.code, p.path, p.allowed) for p in problems] == [
        (ErrorCode.INVALID_ARTIFACT_KIND, "/entries/2/kind", KINDS)
    ]


def test_a_path_used_twice_is_refused_at_its_second_use() -> None:
    entries = [*GOOD_ENTRIES, {**GOOD_ENTRIES[0], "sizeBytes": 1}]

    assert refusal(BUILD.run, manifest_request(entries=entries)) == [
        (ErrorCode.INVALID_INPUT, "/entries/2/path")
    ]


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
]


@pytest.mark.parametrize("path", [pytest.param(p, id=name) for name, p in BAD_PATHS])
def test_a_bad_entry_path_is_refused_at_that_entrys_index(path: str) -> None:
    entries = [*GOOD_ENTRIES, entry(path)]

    assert refusal(BUILD.run, manifest_request(entries=entries)) == [
        (ErrorCode.INVALID_ARTIFACT_PATH, "/entries/2/path")
    ]


@pytest.mark.parametrize("path", [pytest.param(p, id=name) for name, p in BAD_PATHS])
def test_a_bad_root_is_refused_by_the_same_rules(path: str) -> None:
    assert refusal(BUILD.run, manifest_request(root=path)) == [
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

    assert refusal(BUILD.run, manifest_request(root="~/artifacts", entries=entries)) == [
        (ErrorCode.INVALID_ARTIFACT_PATH, "/entries/0/path"),
        (ErrorCode.INVALID_ARTIFACT_PATH, "/entries/3/path"),
        (ErrorCode.INVALID_INPUT, "/entries/4/path"),
        (ErrorCode.INVALID_ARTIFACT_PATH, "/entries/5/path"),
        (ErrorCode.INVALID_ARTIFACT_PATH, "/root"),
    ]


def test_every_contract_problem_of_the_entries_is_reported_together() -> None:
    entries = [entry("a" * 600), *GOOD_ENTRIES, entry("report.pdf", kind="pdf"), entry("")]

    assert refusal(BUILD.run, manifest_request(entries=entries)) == [
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
    "é" * 256,
    "a" * MAX_PATH_LENGTH,
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
        assert ("root/" + path).startswith("root/")


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
