"""A run cut off stays honest: SIGINT, SIGTERM, a browser that dies and a full disk each end
with the events up to the cut, a manifest marked ``interrupted`` that lists every file left,
the conventional exit code, no traceback and no process left behind."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
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


@contextmanager
def _started(
    argv: list[str], ready: Callable[[subprocess.Popen[str]], bool]
) -> Iterator[subprocess.Popen[str]]:
    """``automium run ARGV`` in its own process group, once ``ready`` says so."""
    process = subprocess.Popen(
        [sys.executable, "-m", "automium.cli", "run", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + WAIT_SECONDS
    while not ready(process):
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the run never got where it is cut off"
        time.sleep(0.1)
    try:
        yield process
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def _captured(out: Path, runs: int) -> Callable[[subprocess.Popen[str]], bool]:
    """Whether ``runs`` runs in ``out`` have captured their first step."""
    return lambda _process: len(list(out.glob("*/snapshots/01-*.json"))) >= runs


@pytest.fixture
def stalled_run(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], Path]]:
    """``automium run`` in its own process group, once its first step is captured."""
    out = tmp_path / "out"
    with _started([JOURNEY, "--out", str(out), *STALL], _captured(out, 1)) as process:
        yield process, out


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


def _manifests(out: Path) -> list[dict[str, object]]:
    return [json.loads(path.read_text()) for path in sorted(out.glob("*/manifest.json"))]


def test_a_signal_ends_every_run_of_every_worker_with_an_interrupted_manifest(
    tmp_path: Path,
) -> None:
    """Signals reach the main thread only, which waits on the workers: it stops them, and
    each run a worker was in the middle of is cut off by that signal."""
    out = tmp_path / "out"
    argv = [JOURNEY, "--repeat", "2", "--workers", "2", "--out", str(out), *STALL]
    with _started(argv, _captured(out, 2)) as process:
        children = _descendants(process.pid)
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=WAIT_SECONDS)

    assert process.returncode == 143
    assert "Traceback" not in stderr
    interrupted = [m["interrupted"] for m in _manifests(out)]
    assert interrupted == [{"cause": "sigterm", "stepId": "type-first"}] * 2
    assert _alive(children) == []


# A planner that never answers: its trial waits on it, up to a minute, when it is cut off.
SILENT = f"cmd:silent={sys.executable} -c 'import time; time.sleep(100)'"


def _planners(process: subprocess.Popen[str]) -> dict[int, str]:
    """The silent planner's processes under ``process``."""
    found = {}
    for pid, name in _descendants(process.pid).items():
        with contextlib.suppress(OSError):
            if b"time.sleep(100)" in Path(f"/proc/{pid}/cmdline").read_bytes():
                found[pid] = name
    return found


@pytest.mark.parametrize("workers", [1, pytest.param(2, marks=ci_only)])
def test_a_signal_ends_a_planner_trial_with_an_interrupted_manifest_and_its_planner_killed(
    tmp_path: Path, workers: int
) -> None:
    out = tmp_path / "out"
    argv = [JOURNEY, "--planner", SILENT, "--decision-timeout", "60", "--out", str(out)]
    argv += ["--repeat", str(workers), "--workers", str(workers)]
    with _started(argv, lambda p: len(_planners(p)) == workers) as process:
        children, planners = _descendants(process.pid), _planners(process)
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=WAIT_SECONDS)

    assert process.returncode == 143
    assert "Traceback" not in stderr
    manifests = _manifests(out)
    assert [m["interrupted"] for m in manifests] == [{"cause": "sigterm"}] * workers
    for folder in sorted(p for p in out.iterdir() if p.is_dir()):
        events = [json.loads(line) for line in (folder / "replay.jsonl").read_text().splitlines()]
        assert [e["type"] for e in events][-3:] == [
            "runtime.crashed",
            "run.finished",
            "worker.released",
        ]
    assert _alive(planners) == []  # in a session of its own, the stop killed it
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
