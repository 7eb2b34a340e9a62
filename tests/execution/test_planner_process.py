"""A planner command as a process: what it is given, and how a broken one is bounded."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from automium.planning.external import MAX_LINE, CommandPlanner, scrubbed_environment
from automium.planning.protocol import PlannerBroke

pytestmark = pytest.mark.subprocess
ME = {"id": "p", "vendor": "v", "model": "m"}


def planner(tmp_path: Path, body: str, timeout_s: float = 1.0) -> CommandPlanner:
    path = tmp_path / "planner.py"
    path.write_text("import json, sys, time, os\n" + body)
    started = CommandPlanner([sys.executable, str(path)], ME, timeout_s=timeout_s)
    started.start({})
    return started


def test_a_planner_that_never_reads_cannot_block_a_large_request(tmp_path: Path) -> None:
    deaf = planner(tmp_path, "time.sleep(60)\n")
    started = time.monotonic()
    with pytest.raises(PlannerBroke, match="did not read its request within 1 s"):
        deaf.decide({"snapshot": "x" * (4 * MAX_LINE)})
    deaf.close()

    assert time.monotonic() - started < 10


def test_an_answer_over_the_line_limit_is_refused_and_the_process_is_ended(
    tmp_path: Path,
) -> None:
    flood = planner(tmp_path, "sys.stdin.readline()\nprint('x' * (2 << 20), flush=True)\n")
    with pytest.raises(PlannerBroke, match="bytes"):
        flood.decide({})
    process = flood.process
    flood.close()

    assert process is not None
    assert process.poll() is not None


def test_the_environment_holds_the_path_a_locale_and_only_the_names_passed() -> None:
    source = {"PATH": "/bin", "HOME": "/home/x", "API_KEY": "k", "OPENAI_API_KEY": "s"}

    assert scrubbed_environment(["API_KEY"], source) == {
        "PATH": "/bin",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PYTHONIOENCODING": "utf-8",
        "API_KEY": "k",
    }


def test_a_command_that_does_not_exist_is_a_planner_issue(tmp_path: Path) -> None:
    missing = CommandPlanner([str(tmp_path / "no-such-planner")], ME)
    with pytest.raises(PlannerBroke, match="did not start"):
        missing.start({})
