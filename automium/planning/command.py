"""``automium run --planner SPEC …``: planners drive the journeys, each trial judged by outcome.

Every planner runs every journey ``--repeat`` times, each trial from a fresh fixture. A
planner that breaks (no answer in ``--decision-timeout``, garbage, an early exit, a flood,
another schema version) fails its trial as a ``planner_issue`` and the next trial starts.
Exit codes: 0 every trial passed; 1 a trial failed; 2 bad arguments or a trial errored.
"""

from __future__ import annotations

import copy
import json
import statistics
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from automium import corpus
from automium.contracts import ErrorCode, Verdict, to_document
from automium.errors import AutomiumError
from automium.execution.chromium import connect, launch
from automium.execution.command import (
    RUNS_ROOT,
    checked_endpoint,
    relative_folder,
    write_index,
)
from automium.execution.cutoff import signals_cut_off, stopped
from automium.execution.evidence import Interrupted
from automium.execution.html_report import write_report
from automium.execution.junit import junit_report
from automium.execution.sharding import WHOLE, Shard, parse_shard, run_index, selection
from automium.execution.workers import MAX_WORKERS, run_in_workers
from automium.planning.external import CommandPlanner
from automium.planning.spec import planner_of
from automium.planning.trial import TrialOptions, TrialOutcome, run_trial

if TYPE_CHECKING:
    import argparse

    from playwright.sync_api import Browser, Playwright

Json = dict[str, Any]
_EXIT = {Verdict.PASSED: 0, Verdict.FAILED: 1, Verdict.BLOCKED: 1, Verdict.ERRORED: 2}


def command(args: argparse.Namespace, browser: Browser | None = None) -> int:
    """``automium run --planner …``: the journeys as ``automium run`` reads them, compiled
    first (a refusal is its ``tool-error.v1`` document, exit 2), then every planner's trials;
    ``browser`` is one already launched (the tests share theirs)."""
    from automium.capabilities import find  # noqa: PLC0415
    from automium.execution.command import journeys_of  # noqa: PLC0415

    try:
        documents = [document for text in args.journeys for document in journeys_of(text)]
        if not 1 <= args.repeat <= 100:
            raise _usage(f"--repeat {args.repeat} is not 1 to 100")
        for document in documents:
            find("automium_compile_journey").answer(document)
    except AutomiumError as error:
        print(json.dumps(to_document(error.to_tool_error()), indent=1))
        return 2
    return main(args, documents, browser)


def main(args: argparse.Namespace, documents: Sequence[Json], browser: Browser | None) -> int:
    try:
        planners, shard, endpoint = _checked(args)
    except AutomiumError as error:
        print(json.dumps(to_document(error.to_tool_error()), indent=1))
        return 2
    references = [p.reference for p in planners]
    planned = planned_trials(documents, len(planners), args.repeat)
    positions = shard.positions(len(planned))
    options = TrialOptions(
        args.out, args.timeout, max_steps=args.max_steps, connected=endpoint is not None
    )
    try:
        with signals_cut_off():
            outcomes = run_trials(
                documents,
                planners,
                args.repeat,
                options,
                browser,
                args.workers,
                positions,
                endpoint,
            )
    except (KeyboardInterrupt, Interrupted) as stop:
        return stopped(stop)
    root = args.out if args.out is not None else Path(RUNS_ROOT)
    digest = selection(references, [(d["id"], r) for _, d, r in planned])
    index = index_document(outcomes, positions, shard, digest, len(planned), references, root)
    write_index(root, shard, index)
    if args.junit is not None:
        args.junit.write_text(junit_report(index))
    if args.html is not None:
        write_report(index, root, args.html)
    if not outcomes:  # more shards than trials: this one's index is empty, so merge is whole
        print(f"automium run: shard {shard} holds none of the {len(planned)} trials")
        return 0
    if args.json:
        print(json.dumps([trial_record(o) for o in outcomes], indent=1))
    else:
        print("\n".join(report(o) for o in outcomes))
    if args.trials_out is not None:
        document = trials_document(outcomes, references)
        args.trials_out.write_text(json.dumps(document, indent=1) + "\n")
    return max(_EXIT[o.verdict] for o in outcomes)


def _checked(args: argparse.Namespace) -> tuple[list[Any], Shard, str | None]:
    """The planners, the shard and the endpoint the options give, or the refusal."""
    if not 0.1 <= args.decision_timeout <= 600:
        raise _usage(f"--decision-timeout {args.decision_timeout} is not 0.1 to 600 s")
    if args.max_steps is not None and not 1 <= args.max_steps <= 1000:
        raise _usage(f"--max-steps {args.max_steps} is not 1 to 1000")
    planners = [
        planner_of(s, timeout_s=args.decision_timeout, env_names=args.planner_env)
        for s in args.planner
    ]
    if unsupported := [flag for flag, given in _scripted_only(args) if given]:
        raise _usage(
            f"{', '.join(unsupported)} cannot go with --planner: planner trials take "
            "--repeat, --workers, --shard, --connect, --out, --json, --trials-out, --junit, "
            "--html and --timeout",
            "/planner",
        )
    if not 1 <= args.workers <= MAX_WORKERS:
        raise _usage(f"--workers {args.workers} is not 1 to {MAX_WORKERS}", "/workers")
    shard = WHOLE if args.shard is None else parse_shard(args.shard)
    endpoint = checked_endpoint(args.connect)
    ids = [p.reference["id"] for p in planners]
    if len(set(ids)) != len(ids):
        raise _usage(f"--planner gives the planner id {ids} twice; ids must differ")
    return planners, shard, endpoint


def planned_trials(
    documents: Sequence[Json], planners: int, repeat: int
) -> list[tuple[int, Json, int]]:
    """The whole run's trials, in order: each planner's, of each journey, each repetition."""
    return [
        (planner, document, repetition)
        for planner in range(planners)
        for document in documents
        for repetition in range(1, repeat + 1)
    ]


def index_document(  # noqa: PLR0917 - the parts of the index, in its order
    outcomes: Sequence[TrialOutcome],
    positions: range,
    shard: Shard,
    digest: str,
    trials_total: int,
    planners: Sequence[Json],
    root: Path,
) -> Json:
    """The ``run-index.v1`` of the trials: each at its position, its folder from ``root``,
    so ``automium merge`` joins a planner run's shards as it joins a scripted run's."""
    runs = []
    for position, outcome in zip(positions, outcomes, strict=True):
        run: Json = {
            "position": position,
            "runId": outcome.run_id,
            "fixtureId": outcome.fixture_id,
            "artifactManifestRef": outcome.manifest_ref,
            "verdict": outcome.verdict.value,
            "folder": relative_folder(outcome.folder, root),
        }
        if outcome.failure_class is not None:
            run["failureClass"] = outcome.failure_class.value
        runs.append(run | {"trial": trial_record(outcome)})
    return run_index(shard, digest, trials_total, planners, runs)


def run_trials(  # noqa: PLR0917 - the tests call it as the command does
    documents: Sequence[Json],
    planners: Sequence[Any],
    repeat: int,
    options: TrialOptions,
    browser: Browser | None = None,
    workers: int = 1,
    positions: range | None = None,
    endpoint: str | None = None,
) -> list[TrialOutcome]:
    """Every planner's trials of every journey, ``repeat`` times each, in that order (those
    at ``positions`` of that list only: a shard's), on the browser at ``endpoint`` when
    one is given (``--connect``), else on one launched here.

    With ``workers`` > 1 (and no ``browser`` given), that many trials run at a time, each
    worker with its own browser and its own copy of every planner: a planner holds one
    trial's state (a process, a generator, its place in the journey), and each trial starts
    it afresh, so which worker runs a trial changes nothing it records."""
    planned = planned_trials(documents, len(planners), repeat)
    if positions is not None:
        planned = [planned[p] for p in positions]
    own = threading.local()
    made: list[Any] = []  # every worker's copies, for a stop to kill their processes

    def run(item: tuple[int, Json, int], on: Browser) -> TrialOutcome:
        planner, document, repetition = item
        copies: dict[int, Any] = own.__dict__.setdefault("planners", {})
        if planner not in copies:
            copies[planner] = copy.deepcopy(planners[planner])
            made.append(copies[planner])
        mine = copies[planner]
        return run_trial(document, mine, on, replace(options, repetition=repetition))

    def start(playwright: Playwright) -> Browser:
        return launch(playwright) if endpoint is None else connect(playwright, endpoint)

    if workers > 1 and browser is None and len(planned) > 1:
        return run_in_workers(planned, run, workers, start, on_stop=lambda: _kill(made))
    if not planned:
        return []
    if browser is None:
        with launched(start) as launched_browser:
            return run_trials(
                documents, planners, repeat, options, launched_browser, positions=positions
            )
    return [
        run_trial(document, planners[planner], browser, replace(options, repetition=repetition))
        for planner, document, repetition in planned
    ]


def _kill(planners: Sequence[Any]) -> None:
    for planner in list(planners):
        if isinstance(planner, CommandPlanner):
            planner.kill()


@contextmanager
def launched(start: Callable[[Playwright], Browser] = launch) -> Iterator[Browser]:
    """One headless Chromium for a batch of trials: launch is paid once."""
    from playwright.sync_api import sync_playwright  # noqa: PLC0415

    with sync_playwright() as playwright:
        browser = start(playwright)
        try:
            yield browser
        finally:
            browser.close()


def report(outcome: TrialOutcome) -> str:
    failure = outcome.failure_class.value if outcome.failure_class else "-"
    latency = statistics.median(outcome.decision_latency_ms) if outcome.decision_latency_ms else 0
    return "\n".join(
        [
            f"{outcome.journey_id} by {outcome.planner_id}: {outcome.verdict.value} "
            f"(run {outcome.run_id}, {outcome.latency_ms / 1000:.1f} s)",
            f"  ended by: {outcome.ended_by}; {outcome.reason}"[:300],
            f"  failure class: {failure}",
            f"  decisions: {outcome.steps_used} ({outcome.denied} denied), tokens "
            f"{outcome.input_tokens}+{outcome.output_tokens}, median decision {latency:.0f} ms, "
            f"reset {outcome.reset_ms:.0f} ms",
            f"  evidence: {outcome.folder}",
        ]
    )


def trial_record(outcome: TrialOutcome) -> Json:
    """A trial as ``automium_compare_planners`` takes it, with its evidence."""
    record: Json = {
        "plannerId": outcome.planner_id,
        "appId": outcome.app_id,
        "journeyId": outcome.journey_id,
        "repetition": int(outcome.run_id.rsplit(".", 1)[1]),
        "passed": outcome.passed,
        "latencyMs": outcome.latency_ms,
        "inputTokens": outcome.input_tokens,
        "outputTokens": outcome.output_tokens,
        "recoveryAttempts": 0,
        "decisionLatencyMs": int(statistics.median(outcome.decision_latency_ms or [0])),
        "artifactManifestRef": outcome.manifest_ref,
    }
    if outcome.failure_class is not None:
        record["failureClass"] = outcome.failure_class.value
    return record


def trials_document(outcomes: Sequence[TrialOutcome], planners: Sequence[Json]) -> Json:
    """The trials as ``automium_compare_planners`` input: executed, each with its evidence."""
    trials = [trial_record(o) for o in outcomes]
    return {
        "corpusVersion": corpus.CORPUS_VERSION,
        "appIds": sorted({o.app_id for o in outcomes}),
        "planners": list(planners),
        "repetitions": max(t["repetition"] for t in trials),
        "trials": trials,
    }


def _scripted_only(args: argparse.Namespace) -> list[tuple[str, bool]]:
    """The options of ``automium run`` that planner trials do not take (yet), and whether
    each was given: refused, rather than ignored."""
    return [
        ("--retries", args.retries != 0),
        ("--fail-on-flaky", args.fail_on_flaky),
        ("--evidence", args.evidence != "full"),
        ("--fault", bool(args.fault)),
    ]


def _usage(message: str, where: str = "/planner") -> AutomiumError:
    return AutomiumError.single(ErrorCode.INVALID_INPUT, message, where)


__all__ = ["command", "launched", "main", "run_trials", "trials_document"]
