"""``python -m benchmarks.scaling``: journeys a minute with N workers, and memory per worker.

Runs every reference journey with ``automium run --workers N`` (1, 2 and 4, and 2 through
Playwright's own browser server when its Node package is installed), as a user would,
interleaved round by round, and samples the resident memory of the command's whole process
tree (Python, the drivers, every browser process) while it runs. Prints a Markdown table;
the median of the rounds is what counts.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from automium import corpus
from tests.browser_server import launch_server, missing

REPO = Path(__file__).resolve().parents[1]
AUTOMIUM = REPO / ".venv" / "bin" / "automium"
PAGE = os.sysconf("SC_PAGE_SIZE")


def _tree_rss(root: int) -> int:
    """Resident bytes of ``root`` and every process below it."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            pages = int((entry / "statm").read_text().split()[1])
        except (OSError, IndexError, ValueError):
            continue
        pid = int(entry.name)
        children.setdefault(int(stat[1]), []).append(pid)
        rss[pid] = pages * PAGE
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        total += rss.get(pid, 0)
        stack.extend(children.get(pid, []))
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
            peak = max(peak, _tree_rss(process.pid))
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    rounds = parser.parse_args().rounds
    journeys = [j.id for j in corpus.reference_journeys()]
    with _browser_server() as endpoint:
        sides = {f"{n} worker{'s' * (n > 1)}": ["--workers", str(n)] for n in (1, 2, 4)}
        if endpoint is not None:
            sides["2 workers, run-server"] = ["--workers", "2", "--connect", endpoint]
        measured: dict[str, list[tuple[float, int]]] = {side: [] for side in sides}
        for round_ in range(rounds):
            for side, extra in sides.items():
                seconds, peak, code = _timed_run([*journeys, *extra])
                print(
                    f"[scaling] round {round_ + 1} {side}: {seconds:.1f} s, exit {code}",
                    file=sys.stderr,
                )
                measured[side].append((seconds, peak))
    print(f"{len(journeys)} reference journeys, {rounds} rounds, median of the rounds\n")
    print("| side | wall (s) | journeys/min | peak memory (MiB) | per worker (MiB) |")
    print("|---|---|---|---|---|")
    for side, runs in measured.items():
        wall = statistics.median(s for s, _ in runs)
        peak = statistics.median(p for _, p in runs) / 2**20
        workers = int(sides[side][1])
        print(
            f"| {side} | {wall:.1f} | {60 * len(journeys) / wall:.0f} | {peak:.0f} | "
            f"{peak / workers:.0f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
