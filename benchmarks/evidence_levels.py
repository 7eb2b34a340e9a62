"""``python -m benchmarks.evidence_levels``: ``automium run`` at each evidence level beside
Playwright's own runner at the trace mode it matches.

Every reference journey, exported to TypeScript, runs in one ``@playwright/test`` run: one
project, 1 worker, the apps served before it starts (each spec given its app's base URL),
with ``trace: 'on'`` and ``screenshot: 'on'``, then ``trace: 'retain-on-failure'``, then
both off. ``automium run`` runs the same journeys with ``--evidence full``, ``on-failure``
and ``verdict``. Both sides are whole commands, browser launch included, timed from spawn
to exit; rounds interleave the six sides and alternate which goes first. The median of the
rounds is what counts; the targets are the issue's (at most 1.10x, 1.0x and 1.0x).
"""

from __future__ import annotations

import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from automium import corpus
from automium.contracts import to_document
from automium.export import export_journey
from automium.export.fixture_files import DEFAULT_ROOT, FILES_ENV
from automium.hosting import AppServer
from benchmarks.measure import section_main
from tests.export.runners import NODE_PACKAGE, PLAYWRIGHT_CLI, chromium, secret_values

REPO = Path(__file__).resolve().parents[1]
AUTOMIUM = REPO / ".venv" / "bin" / "automium"
# level -> (Playwright's trace and screenshot modes, the ratio the issue allows)
LEVELS: dict[str, tuple[str, str, float]] = {
    "full": ("on", "on", 1.10),
    "on-failure": ("retain-on-failure", "off", 1.0),
    "verdict": ("off", "off", 1.0),
}
IMPORT = "import { test, expect } from '@playwright/test';"
CONFIG = """import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: '.',
  outputDir: './results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['dot']],
  use: {
    headless: true,
    trace: process.env.BENCH_TRACE,
    screenshot: process.env.BENCH_SCREENSHOT,
    launchOptions: {
      executablePath: process.env.AUTOMIUM_CHROMIUM,
      args: JSON.parse(process.env.AUTOMIUM_CHROMIUM_FLAGS ?? '[]'),
    },
  },
});
"""


@contextlib.contextmanager
def _exported(journeys: list[str], folder: Path) -> Iterator[dict[str, str]]:
    """Each journey's spec in ``folder``, told its app's base URL, while the apps are served;
    yields the secret variables the specs read."""
    secrets: dict[str, str] = {}
    with contextlib.ExitStack() as stack:
        for journey_id in journeys:
            document = to_document(
                next(j for j in corpus.reference_journeys() if j.id == journey_id)
            )
            server = stack.enter_context(AppServer(document["appId"], document["fixtureId"]))
            (spec,) = export_journey(document, ["ts"])
            text = spec.text.replace(
                IMPORT, f"{IMPORT}\ntest.use({{ baseURL: '{server.url}' }});", 1
            )
            (folder / spec.file_name).write_text(text, "utf-8")
            secrets |= secret_values(document["fixtureId"], document["appId"])
        (folder / "playwright.config.mjs").write_text(CONFIG, "utf-8")
        (folder / "node_modules").symlink_to(NODE_PACKAGE / "node_modules")
        yield secrets


def _timed(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, int]:
    started = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, check=False, timeout=900)
    return time.perf_counter() - started, done.returncode


def section(rounds: int, progress: Callable[[str], None]) -> str:
    """The Markdown table of the medians and their ratios."""
    journeys = [j.id for j in corpus.reference_journeys()]
    if not PLAYWRIGHT_CLI.is_file():
        return (
            "## Evidence levels beside Playwright Test\n\nSkipped: no tests/export/node_modules.\n"
        )
    measured: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp, _exported(journeys, Path(tmp)) as secrets:
        folder = Path(tmp)
        base = {**os.environ, **chromium(), "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD": "1"}
        node = [
            "node",
            str(PLAYWRIGHT_CLI),
            "test",
            "--config",
            str(folder / "playwright.config.mjs"),
        ]
        sides: dict[str, Callable[[], tuple[float, int]]] = {}
        for level, (trace, screenshot, _) in LEVELS.items():
            env = {
                **base,
                **secrets,
                FILES_ENV: str(REPO / DEFAULT_ROOT),
                "BENCH_TRACE": trace,
                "BENCH_SCREENSHOT": screenshot,
            }
            sides[f"playwright {level}"] = lambda env=env: _timed(node, env, folder)
            out = folder / f"runs-{level}"
            argv = [str(AUTOMIUM), "run", *journeys, "--evidence", level, "--out", str(out)]
            argv.append("--overwrite")
            sides[f"automium {level}"] = lambda argv=argv: _timed(argv, base, REPO)
        order = list(sides)
        for round_ in range(rounds):
            for side in order if round_ % 2 == 0 else reversed(order):
                seconds, code = sides[side]()
                progress(
                    f"evidence levels, round {round_ + 1}: {side} {seconds:.1f} s (exit {code})"
                )
                measured.setdefault(side, []).append(seconds)
    lines = [
        "## Evidence levels beside Playwright Test",
        "",
        f"{len(journeys)} reference journeys, exported for `@playwright/test` (one project, 1 "
        f"worker) and run by `automium run` (1 worker), browser launch on both sides; median "
        f"of {rounds} interleaved rounds.",
        "",
        "| automium level | Playwright trace, screenshot | automium (s) | Playwright (s) | "
        "ratio | target |",
        "|---|---|---|---|---|---|",
    ]
    for level, (trace, screenshot, target) in LEVELS.items():
        ours = statistics.median(measured[f"automium {level}"])
        theirs = statistics.median(measured[f"playwright {level}"])
        ratio = ours / theirs
        verdict = "met" if ratio <= target else "over"
        lines.append(
            f"| {level} | {trace}, {screenshot} | {ours:.1f} | {theirs:.1f} | {ratio:.2f}x | "
            f"≤{target:.2f}x ({verdict}) |"
        )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(section_main(__doc__ or "", section))
