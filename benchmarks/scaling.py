"""``python -m benchmarks.scaling``: journeys a minute with N workers, and memory per worker.

Runs every reference journey with ``automium run --workers N`` (1, 2 and 4, and 2 through
Playwright's own browser server when its Node package is installed), as a user would,
interleaved round by round, and samples the memory (PSS) of the command's whole process
tree (Python, the drivers, every browser process) while it runs; through the server, the
browsers are the server's and not in that tree. Prints a Markdown table;
the median of the rounds is what counts.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from automium import corpus
from benchmarks.measure import section_main
from tests.browser_server import launch_server, missing

REPO = Path(__file__).resolve().parents[1]
AUTOMIUM = REPO / ".venv" / "bin" / "automium"


def _tree_memory(root: int) -> int:
    """Proportional set size (shared pages split among their sharers, so a browser's many
    processes are not counted many times) of ``root`` and every process below it, bytes."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        stack.extend(children.get(pid, []))
        try:
            rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
        except OSError:
            continue
        pss = next(
            (line.split()[1] for line in rollup.splitlines() if line.startswith("Pss:")), "0"
        )
        total += int(pss) * 1024
    return total


def _timed_run(argv: list[str]) -> tuple[float, int, int]:
    """Wall seconds, peak tree memory and exit code of one ``automium run``."""
    with tempfile.TemporaryDirectory() as out:
        started = time.perf_counter()
        process = subprocess.Popen(
            [str(AUTOMIUM), "run", *argv, "--out", out],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        peak = 0
        while process.poll() is None:
            peak = max(peak, _tree_memory(process.pid))
            time.sleep(0.2)
        return time.perf_counter() - started, peak, process.returncode


@contextmanager
def _browser_server() -> Iterator[str | None]:
    """Playwright's ``launch-server`` on 127.0.0.1, when this machine has what it needs."""
    if missing() is not None:
        yield None
        return
    with launch_server() as endpoint:
        yield endpoint


def section(rounds: int, progress: Callable[[str], None]) -> str:
    """The Markdown table: wall time, journeys a minute and memory, median of the rounds."""
    journeys = [j.id for j in corpus.reference_journeys()]
    with _browser_server() as endpoint:
        sides = {f"{n} worker{'s' * (n > 1)}": ["--workers", str(n)] for n in (1, 2, 4)}
        if endpoint is not None:
            sides["2 workers, run-server"] = ["--workers", "2", "--connect", endpoint]
        measured: dict[str, list[tuple[float, int]]] = {side: [] for side in sides}
        for round_ in range(rounds):
            for side, extra in sides.items():
                seconds, peak, code = _timed_run([*journeys, *extra])
                progress(f"scaling, round {round_ + 1}: {side} {seconds:.1f} s (exit {code})")
                measured[side].append((seconds, peak))
    lines = [
        "## Workers: journeys a minute",
        "",
        f"{len(journeys)} reference journeys with `automium run --workers N`, {rounds} rounds, "
        f"median of the rounds, on {os.cpu_count()} cores; memory is the command's whole "
        "process tree (PSS), the server's browsers aside.",
        "",
        "| side | wall (s) | journeys/min | peak memory (MiB) | per worker (MiB) |",
        "|---|---|---|---|---|",
    ]
    for side, runs in measured.items():
        wall = statistics.median(s for s, _ in runs)
        peak = statistics.median(p for _, p in runs) / 2**20
        workers = int(sides[side][1])
        lines.append(
            f"| {side} | {wall:.1f} | {60 * len(journeys) / wall:.0f} | {peak:.0f} | "
            f"{peak / workers:.0f} |"
        )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(section_main(__doc__ or "", section))
