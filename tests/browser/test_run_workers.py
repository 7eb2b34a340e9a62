"""``automium run --workers N``: trials run by N workers, each with a browser of its own,
record what one worker records, in the order given; a browser killed under a trial fails
that trial only, and a fresh browser takes the next."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Playwright

from automium.cli import _parser
from automium.contracts import Verdict, to_document
from automium.execution import command
from automium.execution.chromium import launch
from automium.execution.executor import Options, Outcome, run_journey
from automium.execution.workers import run_in_workers
from tests.browser.journeys import CI, TIMEOUT_MS, reference

Json = dict[str, Any]


def _unmeasured(trials: Json) -> Json:
    return trials | {"trials": [{**t, "latencyMs": 0} for t in trials["trials"]]}


def test_two_workers_record_what_one_records_in_the_order_given(
    chromium_browser: Browser, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # make test: todo-mvc's 3 journeys once (3 trials for 2 workers); CI: each twice.
    repeat = "2" if CI else "1"
    for name, extra in (("one", []), ("two", ["--workers", "2"])):
        argv = ["todo-mvc", "--repeat", repeat, "--out", str(tmp_path / name)]
        argv += ["--trials-out", str(tmp_path / f"{name}.json"), *extra]
        given = chromium_browser if name == "one" else None  # two: a browser per worker
        assert command.main(_parser().parse_args(["run", *argv]), given) == 0
    capsys.readouterr()
    one, two = (json.loads((tmp_path / f"{n}.json").read_text()) for n in ("one", "two"))
    assert _unmeasured(two) == _unmeasured(one)
    indexes = [json.loads((tmp_path / n / "index.json").read_text()) for n in ("one", "two")]
    assert [r["runId"] for r in indexes[1]["runs"]] == [r["runId"] for r in indexes[0]["runs"]]


def _browser_pids() -> set[int]:
    pids = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
            except OSError:
                continue
            program = Path(cmdline.split(b" ", 1)[0].decode(errors="replace")).name
            if "chrom" in program and b"--type=" not in cmdline:  # the browser, not a helper
                pids.add(int(entry.name))
    return pids


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="finds the browser's process in /proc")
def test_a_browser_killed_under_a_trial_fails_that_trial_only_and_a_fresh_one_goes_on(
    tmp_path: Path,
) -> None:
    lock = threading.Lock()
    launched: list[int] = []

    def launch_seen(playwright: Playwright) -> Browser:
        with lock:  # one launch at a time, so the new browser process is this launch's
            before = _browser_pids()
            browser = launch(playwright)
            launched.extend(_browser_pids() - before)
            return browser

    journey = to_document(reference("todo-mvc.add-two-todos"))

    def kill_after_first_step() -> None:
        deadline = time.monotonic() + 20
        while not list(tmp_path.glob("run-*.2/screenshots/01-*.png")):
            assert time.monotonic() < deadline
            time.sleep(0.01)
        os.kill(launched[0], signal.SIGKILL)

    def run(repetition: int, browser: Browser) -> Outcome:
        if repetition == 2:  # killed while its steps run
            threading.Thread(target=kill_after_first_step, daemon=True).start()
        options = Options(tmp_path, TIMEOUT_MS, repetition=repetition, video=False)
        started = time.monotonic()
        outcome = run_journey(journey, browser, options)
        assert time.monotonic() - started < 30
        return outcome

    outcomes = run_in_workers([1, 2, 3], run, 1, launch_seen)
    assert [o.verdict for o in outcomes] == [Verdict.PASSED, Verdict.ERRORED, Verdict.PASSED]
    classification = outcomes[1].summary["digest"]["classification"]
    assert classification["failureClass"] == "runtime_gap"
    assert len(launched) == 2  # a fresh browser ran the third trial
