"""``automium run``: run journeys for real, print what the replay summary says of each.

Exit codes: 0 every run passed; 1 a run failed or was blocked; 2 a journey or an output was
refused (a ``tool-error.v1`` document on stdout, nothing run), a run errored, or the disk
filled up (``disk_full``); 130 SIGINT and 143 SIGTERM, after the run cut off has written its
events and a manifest marked ``interrupted``. Every output (``--out``, ``--trials-out``,
each run directory) is checked before the browser starts (:mod:`.outputs`).
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from automium import corpus
from automium.contracts import ErrorCode, Verdict, to_document
from automium.errors import AutomiumError, quoted
from automium.execution import outputs
from automium.execution.chromium import NoChromium
from automium.execution.evidence import DiskFull, Interrupted, raise_interrupted
from automium.execution.junit import junit_report
from automium.execution.sharding import WHOLE, Shard, parse_shard, run_index, selection

if TYPE_CHECKING:
    import argparse

    from playwright.sync_api import Browser

    from automium.execution.executor import Outcome
    from automium.hosting import Fault

Json = dict[str, Any]
# Where run directories go without --out: every fixture's artifactRoot lies under it, and so
# does the run's index.
RUNS_ROOT = "artifacts"
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
        "--timeout", type=int, default=5000, metavar="MS", help="bound of each action/assertion"
    )
    run.add_argument(
        "--shard",
        metavar="I/N",
        help="run the I-th of N slices of the trials, as Playwright splits tests; "
        "`automium merge` joins the N indexes",
    )
    run.add_argument("--junit", type=Path, metavar="FILE", help="write a JUnit XML report")
    run.add_argument(
        "--overwrite",
        action="store_true",
        help="replace an earlier run's directory of the same run id (only one its own manifest "
        "lists every file of) and an existing --trials-out or --junit file",
    )


def main(args: argparse.Namespace, browser: Browser | None = None) -> int:
    """Run the command; ``browser`` is one already launched (the tests share theirs)."""
    try:
        documents = [document for text in args.journeys for document in _journeys_of(text)]
        faults = tuple(_fault(text) for text in args.fault)
        if not 1 <= args.repeat <= 100:
            raise _usage(f"--repeat {args.repeat} is not 1 to 100", "/repeat")
        if not 100 <= args.timeout <= 60000:
            raise _usage(f"--timeout {args.timeout} is not 100 to 60000 ms", "/timeout")
        shard = WHOLE if args.shard is None else parse_shard(args.shard)
        from automium.capabilities import find  # noqa: PLC0415

        for document in documents:
            find("automium_compile_journey").answer(document)
        planned = [(d, r) for d in documents for r in range(1, args.repeat + 1)]
        positions = shard.positions(len(planned))
        selected = [planned[p] for p in positions]
        _check_outputs(selected, args)
    except AutomiumError as error:
        return _refused(error)
    outcomes = _runs(selected, faults, args, browser)
    if isinstance(outcomes, int):
        return outcomes
    from automium.execution.executor import PLANNER  # noqa: PLC0415

    root = args.out if args.out is not None else Path(RUNS_ROOT)
    digest = selection([PLANNER], [(d["id"], r) for d, r in planned])
    index = index_document(outcomes, positions, shard, digest, len(planned), root)
    write_index(root, shard, index)
    if args.junit is not None:
        args.junit.write_text(junit_report(index))
    if not outcomes:  # more shards than trials: this one's index is empty, so merge is whole
        print(f"automium run: shard {shard} holds none of the {len(planned)} trials")
        return 0
    if args.json:  # one document per run; several runs print them as one JSON array
        summaries = [o.summary for o in outcomes]
        print(json.dumps(summaries[0] if len(summaries) == 1 else summaries, indent=1))
    else:
        print("\n".join(report(o) for o in outcomes))
    if args.trials_out is not None:
        try:
            args.trials_out.write_text(json.dumps(trials_document(outcomes), indent=1) + "\n")
        except OSError as error:
            return _refused(
                outputs.unwritable("--trials-out cannot be written", "/trials-out", error)
            )
    return max(_EXIT[o.verdict] for o in outcomes)


def _runs(
    selected: Sequence[tuple[Json, int]],
    faults: tuple[Fault, ...],
    args: argparse.Namespace,
    browser: Browser | None,
) -> list[Outcome] | int:
    """The runs' outcomes, or the exit code of runs that could not finish."""
    # SIGTERM cuts a run off as Ctrl-C does (signals reach the main thread only).
    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, raise_interrupted) if main_thread else None
    try:
        return run_all(selected, args.out, faults, args.timeout, browser, args.overwrite)
    except NoChromium as error:
        print(f"automium run: error: {error}", file=sys.stderr)
        return 2
    except AutomiumError as error:  # an output refused as its run began
        return _refused(error)
    except (KeyboardInterrupt, Interrupted) as stop:
        signum = signal.SIGINT if isinstance(stop, KeyboardInterrupt) else stop.signum
        print(
            f"automium run: stopped by {signal.Signals(signum).name}; the run cut off has its "
            "events and a manifest marked interrupted",
            file=sys.stderr,
        )
        return 128 + signum
    except DiskFull as error:
        return _refused(
            outputs.unwritable(f"a run could not write its evidence ({error.left})", "/out", error)
        )
    except OSError as error:  # a folder gone read-only or replaced mid-run
        return _refused(outputs.unwritable("a run could not write its evidence", "/out", error))
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


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


def run_all(  # noqa: PLR0917 - the command's options, in its order
    planned: Sequence[tuple[Json, int]],
    out: Path | None,
    faults: tuple[Fault, ...],
    timeout_ms: int,
    browser: Browser | None = None,
    overwrite: bool = False,
) -> list[Outcome]:
    """Run each (journey, repetition) of ``planned``, in order."""
    from automium.execution.browser import launched  # noqa: PLC0415
    from automium.execution.executor import Options, run_journey  # noqa: PLC0415

    if not planned:
        return []
    if browser is None:
        with launched() as launched_browser:
            return run_all(planned, out, faults, timeout_ms, launched_browser, overwrite)
    return [
        run_journey(
            document,
            browser,
            Options(out, timeout_ms, faults, repetition, overwrite=overwrite),
        )
        for document, repetition in planned
    ]


def report(outcome: Outcome) -> str:
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
    outcomes: Sequence[Outcome],
    positions: range,
    shard: Shard,
    digest: str,
    trials_total: int,
    root: Path,
) -> Json:
    """The ``run-index.v1`` of the runs: each at its position, its folder from ``root``."""
    from automium.execution.executor import PLANNER  # noqa: PLC0415

    runs = []
    trials = trials_document(outcomes)["trials"] if outcomes else []
    for position, outcome, trial in zip(positions, outcomes, trials, strict=True):
        run: Json = {
            "position": position,
            "runId": outcome.run_id,
            "fixtureId": outcome.journey.fixture_id,
            "verdict": outcome.verdict.value,
            "folder": _relative(outcome.folder, root),
            "artifactManifestRef": f"artifacts:run/{outcome.run_id}",
        }
        classification = (outcome.summary.get("digest") or {}).get("classification") or {}
        if outcome.verdict is not Verdict.PASSED and "failureClass" in classification:
            run["failureClass"] = classification["failureClass"]
        runs.append(run | {"trial": trial})
    return run_index(shard, digest, trials_total, [PLANNER], runs)


def write_index(root: Path, shard: Shard, index: Json) -> Path:
    """``index.json`` for a whole run, ``index-I-of-N.json`` for a shard, in ``root``."""
    name = "index.json" if shard == WHOLE else f"index-{shard.index}-of-{shard.total}.json"
    root.mkdir(parents=True, exist_ok=True)
    path = root / name
    path.write_text(json.dumps(index, indent=1) + "\n")
    return path


def _relative(folder: Path, root: Path) -> str:
    return Path(os.path.relpath(folder.resolve(), root.resolve())).as_posix()


def _journeys_of(text: str) -> list[Json]:
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
