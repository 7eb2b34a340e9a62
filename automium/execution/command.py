"""``automium run``: run journeys for real, print what the replay summary says of each.

Exit codes: 0 every run passed; 1 a run failed or was blocked; 2 a journey or an output was
refused (a ``tool-error.v1`` document on stdout, nothing run), a run errored, or the disk
filled up (``disk_full``); 130 SIGINT and 143 SIGTERM, after the run cut off has written its
events and a manifest marked ``interrupted``. Every output (``--out``, ``--trials-out``,
``--junit``, each run directory) is checked before the browser starts (:mod:`.outputs`).
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from automium import corpus
from automium.contracts import ErrorCode, EvidenceLevel, Verdict, to_document
from automium.defaults import ACTION_TIMEOUT_MS
from automium.errors import AutomiumError, quoted
from automium.execution import outputs
from automium.execution.chromium import NoChromium, connect, launch
from automium.execution.cutoff import signals_cut_off, stopped
from automium.execution.evidence import DiskFull, Interrupted
from automium.execution.html_report import write_report
from automium.execution.junit import junit_report
from automium.execution.progress import Progress
from automium.execution.retries import MAX_RETRIES, Tried, attempt_root, tried
from automium.execution.sharding import WHOLE, Shard, parse_shard, run_index, selection
from automium.execution.workers import MAX_WORKERS, run_in_workers

if TYPE_CHECKING:
    import argparse

    from playwright.sync_api import Browser, Playwright

    from automium.execution.executor import Options, Outcome
    from automium.hosting import Fault

Json = dict[str, Any]
# Where run directories go without --out: every fixture's artifactRoot lies under it, and so
# does the run's index.
RUNS_ROOT = "artifacts"
_ENDPOINT = re.compile(r"wss?://[^\s/?#]+(?:[/?#]\S*)?")
_EXIT = {Verdict.PASSED: 0, Verdict.FAILED: 1, Verdict.BLOCKED: 1, Verdict.ERRORED: 2}


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    run = commands.add_parser(
        "run",
        help="run journeys for real in headless Chromium against the owned apps",
        description="Compile each journey, serve its fixture's app on 127.0.0.1, run it in "
        "headless Chromium and write its evidence (events, screenshots, snapshots, trace, "
        "manifest) in one run directory. Exit 0 passed, 1 failed, 2 refused or errored.",
    )
    run.add_argument(
        "journeys",
        nargs="+",
        metavar="JOURNEY",
        help="a reference journey id, a journey file, or an app id (its reference journeys)",
    )
    run.add_argument("--out", type=Path, help="where run directories go (default: artifactRoot)")
    run.add_argument(
        "--json", action="store_true", help="print the replay summary (an array for several runs)"
    )
    run.add_argument("--repeat", type=int, default=1, metavar="N", help="runs of each journey")
    run.add_argument("--trials-out", type=Path, metavar="FILE", help="write recorded trials")
    run.add_argument(
        "--fault",
        action="append",
        default=[],
        metavar="KIND:ROLE:NAME[:TO]",
        help="start the app broken: remove, disable or rename the element (repeatable)",
    )
    run.add_argument(
        "--timeout",
        type=int,
        default=ACTION_TIMEOUT_MS,
        metavar="MS",
        help="bound of each action/assertion",
    )
    run.add_argument(
        "--shard",
        metavar="I/N",
        help="run the I-th of N slices of the trials, as Playwright splits tests; "
        "`automium merge` joins the N indexes",
    )
    run.add_argument("--junit", type=Path, metavar="FILE", help="write a JUnit XML report")
    run.add_argument("--html", type=Path, metavar="FILE", help="write a self-contained HTML report")
    run.add_argument(
        "--retries",
        type=int,
        default=0,
        metavar="N",
        help=f"run a trial that did not pass again, up to N times (0 to {MAX_RETRIES}); one "
        "that then passes is flaky",
    )
    run.add_argument(
        "--fail-on-flaky",
        action="store_true",
        help="exit 1 when a trial is flaky (failed, then passed on a retry)",
    )
    run.add_argument(
        "--connect",
        metavar="WS_ENDPOINT",
        help="run on the browser of Playwright's own server (npx playwright run-server) at "
        "this ws:// endpoint instead of launching one",
    )
    run.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="run N trials at a time, each worker with a browser of its own (default 1)",
    )
    run.add_argument(
        "--evidence",
        choices=[level.value for level in EvidenceLevel],
        default=EvidenceLevel.FULL.value,
        help="what each trial records, as Playwright's trace modes: full (the default), "
        "on-failure (a passed trial keeps its logs only) or verdict (logs only)",
    )
    run.add_argument(
        "--overwrite",
        action="store_true",
        help="replace an earlier run's directory of the same run id (only one its own manifest "
        "lists every file of) and an existing --trials-out or --junit file",
    )


def main(args: argparse.Namespace, browser: Browser | None = None) -> int:
    """Run the command; ``browser`` is one already launched (the tests share theirs)."""
    try:
        documents = [document for text in args.journeys for document in journeys_of(text)]
        faults = tuple(_fault(text) for text in args.fault)
        shard = _checked_options(args)
        from automium.capabilities import find  # noqa: PLC0415

        for document in documents:
            find("automium_compile_journey").answer(document)
        planned = [(d, r) for d in documents for r in range(1, args.repeat + 1)]
        positions = shard.positions(len(planned))
        selected = [planned[p] for p in positions]
        _check_outputs(selected, args)
    except AutomiumError as error:
        return _refused(error)
    from automium.execution.executor import Options  # noqa: PLC0415

    options = Options(
        args.out,
        args.timeout,
        faults,
        connected=args.connect is not None,
        overwrite=args.overwrite,
        evidence=EvidenceLevel(args.evidence),
    )
    tried = _runs(selected, options, args, browser)
    if isinstance(tried, int):
        return tried
    from automium.execution.executor import PLANNER  # noqa: PLC0415

    root = args.out if args.out is not None else Path(RUNS_ROOT)
    digest = selection([PLANNER], [(d["id"], r) for d, r in planned])
    index = index_document(tried, positions, shard, digest, len(planned), root)
    write_index(root, shard, index)
    if args.junit is not None:
        args.junit.write_text(junit_report(index, fail_on_flaky=args.fail_on_flaky))
    if args.html is not None:
        write_report(index, root, args.html)
    outcomes = [t.first for t in tried]
    if not outcomes:  # more shards than trials: this one's index is empty, so merge is whole
        print(f"automium run: shard {shard} holds none of the {len(planned)} trials")
        return 0
    if args.json:  # one document per run; several runs print them as one JSON array
        summaries = [o.summary for o in outcomes]
        print(json.dumps(summaries[0] if len(summaries) == 1 else summaries, indent=1))
    else:
        print("\n".join(report(t) for t in tried))
    if args.trials_out is not None:
        try:
            args.trials_out.write_text(json.dumps(trials_document(outcomes), indent=1) + "\n")
        except OSError as error:
            return _refused(
                outputs.unwritable("--trials-out cannot be written", "/trials-out", error)
            )
    return max(_exit_code(t, fail_on_flaky=args.fail_on_flaky) for t in tried)


def _runs(
    selected: Sequence[tuple[Json, int]],
    options: Options,
    args: argparse.Namespace,
    browser: Browser | None,
) -> list[Tried] | int:
    """The trials, or the exit code of runs that could not finish."""
    progress = Progress(len(selected), quiet=args.json)
    try:
        with signals_cut_off():
            return run_all(
                selected,
                options,
                browser,
                workers=args.workers,
                on_done=lambda done: progress.done(done.attempts[-1].verdict),
                endpoint=args.connect,
                retries=args.retries,
            )
    except NoChromium as error:
        print(f"automium run: error: {error}", file=sys.stderr)
        return 2
    except AutomiumError as error:  # an output refused as its run began
        return _refused(error)
    except (KeyboardInterrupt, Interrupted) as stop:
        return stopped(stop)
    except DiskFull as error:
        return _refused(
            outputs.unwritable(f"a run could not write its evidence ({error.left})", "/out", error)
        )
    except OSError as error:  # a folder gone read-only or replaced mid-run
        return _refused(outputs.unwritable("a run could not write its evidence", "/out", error))
    finally:
        progress.close()


def _refused(error: AutomiumError) -> int:
    print(json.dumps(to_document(error.to_tool_error()), indent=1))
    return 2


def _check_outputs(selected: Sequence[tuple[Json, int]], args: argparse.Namespace) -> None:
    """Every place the runs will write, before the browser starts: each ``--out`` folder (and
    the index's), each run directory (taken, a symlink), ``--trials-out`` and ``--junit``."""
    from automium.execution.executor import run_folder  # noqa: PLC0415

    folders = [run_folder(document, args.out, repetition) for document, repetition in selected]
    index_root = args.out if args.out is not None else Path(RUNS_ROOT)
    for root in sorted({index_root, *(f.parent for f in folders)}):
        outputs.check_folder(root, "--out")
    seen: set[Path] = set()
    for folder in folders:
        if folder in seen:
            raise AutomiumError.single(
                ErrorCode.OUTPUT_TAKEN,
                f"two runs would write {quoted(str(folder))}: a journey is given twice",
                "/journey",
            )
        seen.add(folder)
        outputs.check_run_dir(folder, overwrite=args.overwrite)
    for option, path in (("--trials-out", args.trials_out), ("--junit", args.junit)):
        if path is not None:
            outputs.check_file(path, option, overwrite=args.overwrite)


def _exit_code(trial: Tried, *, fail_on_flaky: bool) -> int:
    if trial.flaky:
        return 1 if fail_on_flaky else 0
    return _EXIT[trial.attempts[-1].verdict]


def run_all(
    planned: Sequence[tuple[Json, int]],
    options: Options,
    browser: Browser | None = None,
    *,
    workers: int = 1,
    on_done: Callable[[Tried], None] = lambda _tried: None,
    endpoint: str | None = None,
    retries: int = 0,
) -> list[Tried]:
    """Run each (journey, repetition) of ``planned`` with ``options``, in order; one that
    does not pass again, ``retries`` times at most.

    On ``browser`` when one is given (the tests share theirs), else on one launched browser
    (connected to, at ``endpoint``), else (``workers`` > 1) on a browser per worker.
    """
    from playwright.sync_api import sync_playwright  # noqa: PLC0415

    from automium.execution.executor import run_journey  # noqa: PLC0415

    def run(item: tuple[Json, int], on: Browser) -> Tried:
        document, repetition = item
        root = options.out if options.out is not None else _artifact_root(document)

        def attempt(number: int) -> Outcome:
            out = attempt_root(root, number)
            return run_journey(document, on, replace(options, out=out, repetition=repetition))

        return tried(attempt, retries)

    def start(playwright: Playwright) -> Browser:
        return launch(playwright) if endpoint is None else connect(playwright, endpoint)

    if workers > 1 and browser is None and len(planned) > 1:
        return run_in_workers(planned, run, workers, start, on_done=on_done)
    if browser is None and planned:
        with sync_playwright() as playwright:
            launched = start(playwright)
            try:
                return run_all(planned, options, launched, on_done=on_done, retries=retries)
            finally:
                launched.close()
    done = []
    for item in planned:
        done.append(run(item, browser))  # type: ignore[arg-type] # given, or launched
        on_done(done[-1])
    return done


def _artifact_root(document: Json) -> Path:
    """Where a journey's runs go without --out: its fixture's artifact root."""
    fixture = corpus.get_fixture(document["fixtureId"], document["appId"])
    return Path.cwd() / fixture.artifact_root


def checked_endpoint(endpoint: str | None) -> str | None:
    """``--connect``'s endpoint, refused unless it is a websocket's."""
    if endpoint is not None and not _ENDPOINT.fullmatch(endpoint):
        raise _usage(
            f"--connect {quoted(endpoint)} is not a ws:// or wss:// endpoint, such as the "
            "one `npx playwright run-server` prints",
            "/connect",
        )
    return endpoint


def _checked_options(args: argparse.Namespace) -> Shard:
    """Refuse an option out of its range before anything runs; the shard to run."""
    if not 1 <= args.repeat <= 100:
        raise _usage(f"--repeat {args.repeat} is not 1 to 100", "/repeat")
    if not 100 <= args.timeout <= 60000:
        raise _usage(f"--timeout {args.timeout} is not 100 to 60000 ms", "/timeout")
    checked_endpoint(args.connect)
    if not 0 <= args.retries <= MAX_RETRIES:
        raise _usage(f"--retries {args.retries} is not 0 to {MAX_RETRIES}", "/retries")
    if not 1 <= args.workers <= MAX_WORKERS:
        raise _usage(f"--workers {args.workers} is not 1 to {MAX_WORKERS}", "/workers")
    return WHOLE if args.shard is None else parse_shard(args.shard)


def report(trial: Tried) -> str:
    """What the command prints of a trial: its first run, then each retry's verdict."""
    lines = [_report(trial.first)]
    for number, retry in enumerate(trial.retries, start=1):
        lines.append(f"  retry {number}: {retry.verdict.value} ({retry.folder})")
    if trial.flaky:
        lines.append(f"  flaky: passed on attempt {len(trial.attempts)}, not the first")
    return "\n".join(lines)


def _report(outcome: Outcome) -> str:
    """What the command prints of a run: the replay summary's verdict, step and class."""
    digest = outcome.summary.get("digest") or {}
    classification = digest.get("classification") or {}
    missing = outcome.manifest.get("missingKinds") or []
    files = outcome.manifest["entries"]
    size = sum(e.get("sizeBytes", 0) for e in files)
    lines = [
        f"{outcome.journey.id}: {outcome.verdict.value} "
        f"(run {outcome.run_id}, {outcome.latency_ms / 1000:.1f} s)",
        f"  verdict: {outcome.verdict.value}",
        f"  failing step: {digest.get('failingStep', '-')}",
        f"  failure class: {classification.get('failureClass', '-')}",
        f"  events: {digest.get('events', 0)} "
        + " ".join(f"{lane}={n}" for lane, n in (digest.get("lanes") or {}).items()),
        f"  evidence: {outcome.folder} ({len(files)} files, {size} bytes), "
        + ("complete" if not missing else "missing " + ", ".join(missing)),
    ]
    return "\n".join(lines)


def trials_document(outcomes: Sequence[Outcome]) -> Json:
    """The runs as ``automium_compare_planners`` takes recorded trials."""
    from automium.execution.executor import PLANNER  # noqa: PLC0415

    trials = []
    for outcome in outcomes:
        journey = outcome.journey
        trial: Json = {
            "plannerId": PLANNER["id"],
            "appId": journey.app_id,
            "journeyId": journey.id,
            "repetition": int(outcome.run_id.rsplit(".", 1)[1]),
            "passed": outcome.verdict is Verdict.PASSED,
            "latencyMs": outcome.latency_ms,
            "inputTokens": 0,
            "outputTokens": 0,
            "recoveryAttempts": outcome.retry_count,
            "stepsCompleted": outcome.steps_completed,
            "stepsTotal": len(journey.steps),
        }
        if outcome.failing_step is not None:
            trial["failingStep"] = outcome.failing_step
            trial["failingLane"] = outcome.failing_lane
        trials.append(trial)
    return {
        "corpusVersion": corpus.CORPUS_VERSION,
        "appIds": sorted({o.journey.app_id for o in outcomes}),
        "planners": [PLANNER],
        "repetitions": max(t["repetition"] for t in trials),
        "trials": trials,
    }


def index_document(  # noqa: PLR0917 - the parts of the index, in its order
    done: Sequence[Tried],
    positions: range,
    shard: Shard,
    digest: str,
    trials_total: int,
    root: Path,
) -> Json:
    """The ``run-index.v1`` of the runs: each at its position, its folder from ``root``."""
    from automium.execution.executor import PLANNER  # noqa: PLC0415

    runs = []
    trials = trials_document([t.first for t in done])["trials"] if done else []
    for position, one, trial in zip(positions, done, trials, strict=True):
        outcome = one.first
        run: Json = {
            "position": position,
            "runId": outcome.run_id,
            "fixtureId": outcome.journey.fixture_id,
            "artifactManifestRef": f"artifacts:run/{outcome.run_id}",
            **_attempt(outcome, root),
        }
        if one.retries:
            run["flaky"] = one.flaky
            run["retries"] = [_attempt(retry, root) for retry in one.retries]
        runs.append(run | {"trial": trial})
    return run_index(shard, digest, trials_total, [PLANNER], runs)


def _attempt(outcome: Outcome, root: Path) -> Json:
    """An attempt's verdict, run directory (from ``root``) and failure class."""
    attempt: Json = {
        "verdict": outcome.verdict.value,
        "folder": relative_folder(outcome.folder, root),
    }
    classification = (outcome.summary.get("digest") or {}).get("classification") or {}
    if outcome.verdict is not Verdict.PASSED and "failureClass" in classification:
        attempt["failureClass"] = classification["failureClass"]
    return attempt


def write_index(root: Path, shard: Shard, index: Json) -> Path:
    """``index.json`` for a whole run, ``index-I-of-N.json`` for a shard, in ``root``."""
    name = "index.json" if shard == WHOLE else f"index-{shard.index}-of-{shard.total}.json"
    root.mkdir(parents=True, exist_ok=True)
    path = root / name
    path.write_text(json.dumps(index, indent=1) + "\n")
    return path


def relative_folder(folder: Path, root: Path) -> str:
    """A run directory as an index names it: a path from the index's folder."""
    return Path(os.path.relpath(folder.resolve(), root.resolve())).as_posix()


def journeys_of(text: str) -> list[Json]:
    """An app id names its reference journeys; anything else is one journey."""
    if text in corpus.app_ids():
        return [to_document(j) for j in corpus.reference_journeys() if j.app_id == text]
    return [_journey_document(text)]


def _journey_document(text: str) -> Json:
    references = {j.id: j for j in corpus.reference_journeys()}
    if text in references:
        return to_document(references[text])
    path = Path(text)
    if path.is_file():
        try:
            value = json.loads(path.read_text("utf-8"))
        except (OSError, ValueError) as error:
            raise _usage(f"{quoted(text)} holds no JSON journey: {error}", "/journey") from None
        if isinstance(value, dict):
            return value
        raise _usage(f"{quoted(text)} holds no JSON object", "/journey")
    raise AutomiumError.single(
        ErrorCode.UNKNOWN_JOURNEY,
        f"{quoted(text)} is neither a reference journey id nor a journey file",
        "/journey",
        list(references),
    )


def _fault(text: str) -> Fault:
    from automium.hosting import Fault  # noqa: PLC0415

    kind, _, rest = text.partition(":")
    role, _, rest = rest.partition(":")
    name, _, to = rest.partition(":")
    if kind not in ("remove", "disable", "rename") or not role or not name:
        raise AutomiumError.single(
            ErrorCode.INVALID_INPUT,
            f"--fault {quoted(text)} is not KIND:ROLE:NAME[:TO] with KIND remove, disable or "
            "rename (rename needs TO)",
            "/fault",
            ["remove", "disable", "rename"],
        )
    if kind == "rename" and not to:
        raise _usage(
            f"--fault {quoted(text)}: rename needs the new name, KIND:ROLE:NAME:TO", "/fault"
        )
    return Fault(kind, role, name, to or None)  # type: ignore[arg-type]


def _usage(message: str, path: str) -> AutomiumError:
    return AutomiumError.single(ErrorCode.INVALID_INPUT, message, path)
