"""``automium run`` measured: against a plain Playwright script, and in journeys per minute.

1. Side by side: the demo's reference journey (``shop-lite.buy-one-mug``; the todo-mvc one
   until shop-lite is built) through the executor, and the same steps written as a plain
   Playwright-for-Python script that keeps the same evidence: a screenshot and an ARIA
   snapshot (as JSON) after each step, a trace with screenshots and DOM snapshots, a HAR and
   the console log. Both serve the app the same way; the browser is launched once, before
   timing; runs are interleaved (executor, script, script, executor, ...). Budget: the
   executor's median at most 1.25x the script's.
2. Throughput: every reference journey whose app is built, run once each, with 1 browser
   context at a time and with 2 at a time (two threads, each with its own browser, launched
   before timing), as journeys per minute.

``python -m benchmarks.execution`` prints the section; ``benchmarks.run`` appends it.
"""

from __future__ import annotations

import json
import re
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect, sync_playwright

from automium import corpus
from automium.contracts import to_document
from automium.execution.chromium import launch
from automium.execution.executor import Options, Outcome, run_journey
from automium.hosting import AppServer
from automium.hosting.bundles import app_root

BUDGET = 1.25
DEMO = "shop-lite.buy-one-mug"
FALLBACK = "todo-mvc.add-two-todos"


def _built(app_id: str) -> bool:
    return (app_root(app_id) / "index.html").is_file()


def _journey(journey_id: str) -> dict[str, Any]:
    return to_document(next(j for j in corpus.reference_journeys() if j.id == journey_id))


# -- the plain scripts: what a person writes by hand for the same steps ----------------------


def _buy_one_mug(page: Page, base: str, keep: Callable[[str], None]) -> None:
    page.goto(base + "/")
    keep("open-home")
    page.get_by_role("searchbox", name="Search", exact=True).fill("mug")
    keep("search")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    keep("submit")
    page.get_by_role("button", name="Add to cart", exact=True).nth(0).click()
    keep("add")
    page.goto(base + "/checkout")
    keep("checkout")
    with page.expect_navigation():
        page.get_by_role("button", name="Place order", exact=True).click()
    expect(page).to_have_url(re.compile(r"/orders/[^/]+/confirmation$"))
    heading = page.get_by_role("heading", name="Thank you for your order", exact=True)
    expect(heading).to_contain_text("Thank you")
    keep("pay")


def _add_two_todos(page: Page, base: str, keep: Callable[[str], None]) -> None:
    page.goto(base + "/")
    keep("open-all")
    box = page.get_by_role("textbox", name="What needs to be done?", exact=True)
    box.fill("Buy milk")
    keep("type-first")
    page.keyboard.press("Enter")
    keep("add-first")
    box.fill("Walk the dog")
    keep("type-second")
    page.keyboard.press("Enter")
    expect(page.get_by_role("status", name="Items left", exact=True)).to_have_text("2 items left")
    expect(box).to_have_value("")
    keep("add-second")


SCRIPTS = {DEMO: _buy_one_mug, FALLBACK: _add_two_todos}


def plain_script(browser: Browser, journey_id: str, out: Path) -> float:
    """Seconds for the hand-written script of ``journey_id``, evidence included."""
    journey = _journey(journey_id)
    fixture = corpus.get_fixture(journey["fixtureId"], journey["appId"])
    profile = corpus.get_environment_profile(fixture.environment_profile_id)
    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    with AppServer(journey["appId"], journey["fixtureId"]) as server:
        mobile = profile.device_class.value == "mobile"
        context = browser.new_context(
            viewport={"width": profile.viewport.width, "height": profile.viewport.height},
            is_mobile=mobile,
            has_touch=mobile,
            locale=profile.locale,
            timezone_id=profile.timezone,
            record_har_path=out / "network.har",
            record_har_content="omit",
        )
        context.tracing.start(screenshots=True, snapshots=True)
        page = context.new_page()
        console: list[str] = []
        page.on("console", lambda m: console.append(f"[{m.type}] {m.text}"))

        def keep(step: str) -> None:
            page.screenshot(path=out / f"{step}.png")
            snapshot = page.locator("body").aria_snapshot()
            (out / f"{step}.json").write_text(json.dumps({"step": step, "aria": snapshot}))

        SCRIPTS[journey_id](page, server.url, keep)
        context.tracing.stop(path=out / "trace.zip")
        context.close()
        (out / "console.log").write_text("\n".join(console))
    return time.perf_counter() - started


def executor(browser: Browser, journey_id: str, out: Path) -> Outcome:
    # A journey measured again replaces its earlier run (the same run id, the same folder).
    return run_journey(_journey(journey_id), browser, Options(out, overwrite=True))


# -- measurements -----------------------------------------------------------------------------


def side_by_side(rounds: int, progress: Callable[[str], None]) -> dict[str, Any]:
    journey_id = DEMO if _built("shop-lite") else FALLBACK
    ran: list[float] = []
    plain: list[float] = []
    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as folder:
        browser = launch(playwright)
        out = Path(folder)
        executor(browser, journey_id, out / "warm")  # first-use costs, for both
        plain_script(browser, journey_id, out / "warm-plain")
        for index in range(rounds):
            order = (0, 1) if index % 2 == 0 else (1, 0)
            for which in order:
                if which == 0:
                    started = time.perf_counter()
                    outcome = executor(browser, journey_id, out / f"run-{index}")
                    ran.append(time.perf_counter() - started)
                    assert outcome.verdict.value == "passed", outcome.summary_line
                else:
                    plain.append(plain_script(browser, journey_id, out / f"plain-{index}"))
            progress(f"side by side {index + 1}/{rounds}")
        browser.close()
    ratio = statistics.median(ran) / statistics.median(plain)
    return {
        "journey": journey_id,
        "rounds": rounds,
        "run_median_s": statistics.median(ran),
        "plain_median_s": statistics.median(plain),
        "ratio": ratio,
        "within": ratio <= BUDGET,
    }


def throughput(workers: int, progress: Callable[[str], None]) -> dict[str, Any]:
    """Journeys per minute over every built reference journey, ``workers`` at a time."""
    ids = [j.id for j in corpus.reference_journeys() if _built(j.app_id)]
    shares = [ids[w::workers] for w in range(workers)]
    ready = threading.Barrier(workers + 1)
    finished = threading.Barrier(workers + 1)
    outcomes: list[Outcome] = []
    seconds: list[float] = []
    lock = threading.Lock()

    def work(share: list[str]) -> None:
        with sync_playwright() as playwright, tempfile.TemporaryDirectory() as folder:
            browser = launch(playwright)
            ready.wait()
            for journey_id in share:
                started = time.perf_counter()
                outcome = executor(browser, journey_id, Path(folder))
                with lock:
                    seconds.append(time.perf_counter() - started)
                    outcomes.append(outcome)
            finished.wait()
            browser.close()

    threads = [threading.Thread(target=work, args=(share,)) for share in shares]
    for thread in threads:
        thread.start()
    ready.wait()
    started = time.perf_counter()
    finished.wait()
    wall = time.perf_counter() - started
    for thread in threads:
        thread.join()
    progress(f"{len(ids)} journeys with {workers} context(s) in {wall:.1f} s")
    largest = max(outcomes, key=lambda o: len(o.events))
    return {
        "workers": workers,
        "journeys": len(ids),
        "wall_s": wall,
        "per_minute": 60 * len(ids) / wall,
        "median_s": statistics.median(seconds),
        "max_s": max(seconds),
        "passed": sum(o.verdict.value == "passed" for o in outcomes),
        "bytes_median": statistics.median(
            sum(e["sizeBytes"] for e in o.manifest["entries"]) for o in outcomes
        ),
        "largest": largest.journey.id,
        "largest_lanes": dict(Counter(e["lane"] for e in largest.events)),
    }


def render(pair: dict[str, Any], one: dict[str, Any], two: dict[str, Any]) -> str:
    verdict = "within" if pair["within"] else "OVER"
    lanes = ", ".join(f"{k} {v}" for k, v in sorted(one["largest_lanes"].items()))
    return f"""## `automium run` against a plain Playwright script

Journey `{pair["journey"]}`, {pair["rounds"]} interleaved rounds, browser launch excluded, the \
same evidence kept by both (screenshot and ARIA snapshot per step, trace, HAR, console log).

| | median s |
|---|---|
| `automium run` (executor) | {pair["run_median_s"]:.3f} |
| plain Playwright script | {pair["plain_median_s"]:.3f} |
| ratio | {pair["ratio"]:.2f}x ({verdict} the {BUDGET}x budget) |

Every reference journey with a built app ({one["journeys"]}), once each:

| contexts | journeys/min | wall s | s per journey (median / max) | passed |
|---|---|---|---|---|
| 1 | {one["per_minute"]:.1f} | {one["wall_s"]:.1f} | {one["median_s"]:.2f} / {one["max_s"]:.2f} | \
{one["passed"]} |
| 2 | {two["per_minute"]:.1f} | {two["wall_s"]:.1f} | {two["median_s"]:.2f} / {two["max_s"]:.2f} | \
{two["passed"]} |

Artifact bytes per run (median): {one["bytes_median"]:.0f}. Events per lane of the largest \
journey (`{one["largest"]}`): {lanes}.
"""


def section(rounds: int, progress: Callable[[str], None]) -> str:
    pair = side_by_side(rounds, progress)
    return render(pair, throughput(1, progress), throughput(2, progress))


if __name__ == "__main__":
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    print(section(rounds, lambda m: print(f"[bench] {m}", file=sys.stderr, flush=True)))
