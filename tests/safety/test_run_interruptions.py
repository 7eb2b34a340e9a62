"""A run cut off stays honest: SIGINT, SIGTERM, a browser that dies and a full disk each end
with the events up to the cut, a manifest marked ``interrupted`` that lists every file left,
the conventional exit code, no traceback and no process left behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser.journeys import built

pytestmark = [
    pytest.mark.subprocess,
    pytest.mark.browser,
    pytest.mark.skipif(not built("todo-mvc"), reason="app not built"),
]

JOURNEY = "todo-mvc.add-two-todos"
# The second step waits on a field that never becomes editable: the run is cut off there.
STALL = ["--fault", "disable:textbox:What needs to be done?", "--timeout", "60000"]
WAIT_SECONDS = 60.0


def _processes() -> dict[int, tuple[int, str]]:
    """Every live process: its parent and its command name."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        name, fields = stat[stat.index("(") + 1 : stat.rindex(")")], stat[stat.rindex(")") + 2 :]
        state, parent = fields.split()[:2]
        if state != "Z":
            found[int(entry.name)] = (int(parent), name)
    return found


def _descendants(pid: int) -> dict[int, str]:
    """The processes started by ``pid``, theirs included (Playwright puts the browser in a
    process group of its own, so the group does not find it)."""
    processes = _processes()
    found: dict[int, str] = {}
    parents = {pid}
    while parents:
        children = {p for p, (parent, _) in processes.items() if parent in parents}
        found.update({p: processes[p][1] for p in children})
        parents = children
    return found


def _alive(pids: dict[int, str]) -> list[str]:
    processes = _processes()
    return [name for pid, name in pids.items() if processes.get(pid, (0, ""))[1] == name]


@pytest.fixture
def stalled_run(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], Path]]:
    """``automium run`` in its own process group, once its first step is captured."""
    out = tmp_path / "out"
    process = subprocess.Popen(
        [sys.executable, "-m", "automium.cli", "run", JOURNEY, "--out", str(out), *STALL],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + WAIT_SECONDS
    while not list(out.glob("*/snapshots/01-*.json")):
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the run never got past its first step"
        time.sleep(0.1)
    try:
        yield process, out
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def _cut_off(out: Path) -> tuple[dict[str, object], list[dict[str, object]], set[str]]:
    (folder,) = (path for path in out.iterdir() if path.is_dir())  # the index lies beside it
    manifest = json.loads((folder / "manifest.json").read_text())
    events = [json.loads(line) for line in (folder / "replay.jsonl").read_text().splitlines()]
    files = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
    return manifest, events, files


# make test keeps to a slice (SIGTERM and the full disk); CI=true runs every cut.
IN_CI = os.environ.get("CI") == "true"
ci_only = pytest.mark.skipif(not IN_CI, reason="the make test slice is SIGTERM and a full disk")


@pytest.mark.parametrize(
    ("signum", "code", "cause"),
    [
        (signal.SIGTERM, 143, "sigterm"),
        pytest.param(signal.SIGINT, 130, "sigint", marks=ci_only),
    ],
)
def test_a_signal_ends_the_run_with_an_interrupted_manifest_and_no_process_left(
    stalled_run: tuple[subprocess.Popen[str], Path], signum: int, code: int, cause: str
) -> None:
    process, out = stalled_run
    children = _descendants(process.pid)
    process.send_signal(signum)
    _, stderr = process.communicate(timeout=WAIT_SECONDS)
    manifest, events, files = _cut_off(out)

    assert process.returncode == code
    assert "Traceback" not in stderr
    assert manifest["interrupted"] == {"cause": cause, "stepId": "type-first"}
    assert {e["path"] for e in manifest["entries"]} == files - {"manifest.json"}  # type: ignore[attr-defined]
    assert [e["type"] for e in events][-3:] == [
        "runtime.crashed",
        "run.finished",
        "worker.released",
    ]
    assert any("chrom" in name for name in children.values())
    assert _alive(children) == []


@ci_only
def test_a_browser_that_dies_ends_the_run_errored_with_an_interrupted_manifest(
    stalled_run: tuple[subprocess.Popen[str], Path],
) -> None:
    process, out = stalled_run
    children = _descendants(process.pid)
    browsers = [pid for pid, name in children.items() if "chrom" in name]
    assert browsers
    for pid in browsers:
        os.kill(pid, signal.SIGKILL)
    _, stderr = process.communicate(timeout=WAIT_SECONDS)
    manifest, events, files = _cut_off(out)

    assert process.returncode == 2
    assert "Traceback" not in stderr
    assert manifest["interrupted"] == {"cause": "browser_closed", "stepId": "type-first"}
    assert {e["path"] for e in manifest["entries"]} == files - {"manifest.json"}  # type: ignore[attr-defined]
    assert "runtime.crashed" in [e["type"] for e in events]
    assert _alive(children) == []


# A disk that fills up mid-run: every file after the third the run writes itself fails as a
# full disk does (a tmpfs would need a mount; this holds wherever the tests run). The
# manifest still fits, as a small file often does on a full disk.
FULL_DISK = """
import errno, os, sys
from automium.cli import main
from automium.execution.evidence import RunDir
write, written = RunDir.write, []
def filling(self, relative, data):
    if len(written) >= 3 and relative != "manifest.json":
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    written.append(relative)
    return write(self, relative, data)
RunDir.write = filling
sys.exit(main(sys.argv[1:]))
"""


def test_a_full_disk_is_reported_with_its_code_and_the_files_left_are_listed(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    ran = subprocess.run(
        [sys.executable, "-c", FULL_DISK, "run", JOURNEY, "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=WAIT_SECONDS,
        check=False,
    )
    error = json.loads(ran.stdout)
    (folder,) = out.iterdir()
    manifest = json.loads((folder / "manifest.json").read_text())
    files = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}

    assert (ran.returncode, error["code"], error["path"]) == (2, "disk_full", "/out")
    assert "its manifest, marked interrupted, lists them" in error["message"]
    assert manifest["interrupted"]["cause"] == "disk_full"
    assert {e["path"] for e in manifest["entries"]} == files - {"manifest.json"}
    assert "replay.jsonl" not in files  # it is what could not be written
    assert "Traceback" not in ran.stderr
