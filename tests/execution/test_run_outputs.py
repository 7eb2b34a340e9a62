"""Where ``automium run`` writes, checked before any browser starts: a bad ``--out`` or
``--trials-out`` and a taken run directory are tool errors with exit 2, and no file
Automium did not write is ever deleted, ``--overwrite`` or not."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest

from automium import corpus
from automium.cli import main
from automium.contracts import to_document
from automium.execution.evidence import RunDir
from automium.execution.executor import run_folder
from automium.execution.outputs import MANIFEST_VERSION

JOURNEY = "todo-mvc.add-two-todos"


def document() -> dict[str, object]:
    return to_document(next(j for j in corpus.reference_journeys() if j.id == JOURNEY))


def refusal(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str, str]:
    code = main(["run", JOURNEY, *argv])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    error = json.loads(captured.out)
    return code, error["code"], error["path"], error["message"]


def earlier_run(folder: Path, *extra: str) -> None:
    """A directory as an earlier run leaves it: its files, listed by its manifest."""
    folder.mkdir(parents=True)
    (folder / "screenshots").mkdir()
    (folder / "screenshots" / "01-a.png").write_bytes(b"png")
    (folder / "replay.jsonl").write_text("{}\n")
    entries = [
        {"kind": "screenshot", "path": "screenshots/01-a.png", "contentType": "image/png"},
        {"kind": "replay-log", "path": "replay.jsonl", "contentType": "application/x-ndjson"},
    ]
    manifest = {"schemaVersion": MANIFEST_VERSION, "runId": folder.name, "entries": entries}
    (folder / "manifest.json").write_text(json.dumps(manifest))
    for name in extra:
        (folder / name).write_text("mine")


def test_an_out_that_is_a_file_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    out.write_text("a file of mine")

    code, error, path, message = refusal(capsys, "--out", str(out))

    assert (code, error, path) == (2, "unwritable_output", "/out")
    assert "is a file" in message
    assert out.read_text() == "a file of mine"


def test_an_out_below_a_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "file").write_text("")

    assert refusal(capsys, "--out", str(tmp_path / "file" / "runs"))[:3] == (
        2,
        "unwritable_output",
        "/out",
    )


def test_an_out_that_cannot_be_written_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    place = Path("/sys")  # read-only even for root in a container; else a read-only folder
    try:
        os.rmdir(tempfile.mkdtemp(dir=place))
    except OSError:
        pass
    else:
        pytest.skip("this machine lets its /sys be written")

    assert refusal(capsys, "--out", str(place / "runs"))[:3] == (2, "unwritable_output", "/out")


def test_trials_out_in_a_folder_that_does_not_exist_is_refused_before_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trials = tmp_path / "missing" / "trials.json"

    code, error, path, message = refusal(
        capsys, "--out", str(tmp_path / "out"), "--trials-out", str(trials)
    )

    assert (code, error, path) == (2, "unwritable_output", "/trials-out")
    assert "does not exist" in message
    assert not (tmp_path / "out").exists()


def test_trials_out_that_exists_needs_overwrite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trials = tmp_path / "trials.json"
    trials.write_text("mine")

    assert refusal(capsys, "--out", str(tmp_path), "--trials-out", str(trials))[:3] == (
        2,
        "output_taken",
        "/trials-out",
    )
    assert trials.read_text() == "mine"


def test_a_run_directory_that_is_a_symlink_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = run_folder(document(), tmp_path, 1)
    (tmp_path / "elsewhere").mkdir()
    folder.symlink_to(tmp_path / "elsewhere")

    code, error, path, message = refusal(capsys, "--out", str(tmp_path), "--overwrite")

    assert (code, error, path) == (2, "unwritable_output", "/out")
    assert "symlink" in message


def test_a_taken_run_id_is_refused_and_nothing_in_it_is_touched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = run_folder(document(), tmp_path, 1)
    earlier_run(folder, "notes.txt")

    code, error, path, message = refusal(capsys, "--out", str(tmp_path))

    assert (code, error, path) == (2, "output_taken", "/out")
    assert "--overwrite" in message
    assert (folder / "notes.txt").read_text() == "mine"
    assert (folder / "screenshots" / "01-a.png").is_file()


def test_overwrite_refuses_a_run_directory_holding_a_file_its_manifest_does_not_list(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = run_folder(document(), tmp_path, 1)
    earlier_run(folder, "notes.txt")

    code, error, _, message = refusal(capsys, "--out", str(tmp_path), "--overwrite")

    assert (code, error) == (2, "output_taken")
    assert "notes.txt" in message
    assert (folder / "notes.txt").read_text() == "mine"


def test_overwrite_refuses_a_directory_with_no_manifest_of_that_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = run_folder(document(), tmp_path, 1)
    folder.mkdir()
    (folder / "manifest.json").write_text(
        json.dumps({"schemaVersion": MANIFEST_VERSION, "runId": "run-other.1", "entries": []})
    )

    code, error, _, message = refusal(capsys, "--out", str(tmp_path), "--overwrite")

    assert (code, error) == (2, "output_taken")
    assert "holds no manifest of run" in message
    assert (folder / "manifest.json").is_file()


def test_a_journey_given_twice_would_write_one_directory_twice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["run", JOURNEY, JOURNEY, "--out", str(tmp_path)])
    error = json.loads(capsys.readouterr().out)

    assert (code, error["code"]) == (2, "output_taken")


def test_overwrite_deletes_only_the_files_an_earlier_runs_manifest_lists(tmp_path: Path) -> None:
    folder = tmp_path / "run-abc.1"
    earlier_run(folder)

    RunDir(tmp_path, "run-abc.1", "artifacts", overwrite=True).create()

    assert folder.is_dir()
    assert list(folder.iterdir()) == []


def test_without_overwrite_a_directory_that_appeared_is_not_replaced(tmp_path: Path) -> None:
    from automium.errors import AutomiumError  # noqa: PLC0415

    earlier_run(tmp_path / "run-abc.1")

    with pytest.raises(AutomiumError) as raised:
        RunDir(tmp_path, "run-abc.1", "artifacts").create()

    assert raised.value.code.value == "output_taken"
    assert (tmp_path / "run-abc.1" / "replay.jsonl").is_file()


def test_junit_in_a_folder_that_does_not_exist_is_refused_before_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junit = tmp_path / "missing" / "report.xml"

    code, error, path, _ = refusal(capsys, "--out", str(tmp_path / "out"), "--junit", str(junit))

    assert (code, error, path) == (2, "unwritable_output", "/junit")
    assert not (tmp_path / "out").exists()
