"""``automium run``: run journeys for real, print what the replay summary says of each.

Exit codes: 0 every run passed; 1 a run failed or was blocked; 2 a journey was refused (the
``tool-error.v1`` document of compile on stdout, nothing run or written) or a run errored.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from automium import corpus
from automium.contracts import ErrorCode, Verdict, to_document
from automium.errors import AutomiumError, quoted
from automium.execution.chromium import NoChromium

if TYPE_CHECKING:
    import argparse

    from playwright.sync_api import Browser

    from automium.execution.executor import Outcome
    from automium.hosting import Fault

Json = dict[str, Any]
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
    from automium.planning.arguments import add_arguments  # noqa: PLC0415

    add_arguments(run)  # --planner and its options: planner trials, judged by outcome


def main(args: argparse.Namespace, browser: Browser | None = None) -> int:
    """Run the command; ``browser`` is one already launched (the tests share theirs)."""
    try:
        documents = [document for text in args.journeys for document in _journeys_of(text)]
        faults = tuple(_fault(text) for text in args.fault)
        if not 1 <= args.repeat <= 100:
            raise _usage(f"--repeat {args.repeat} is not 1 to 100", "/repeat")
        if not 100 <= args.timeout <= 60000:
            raise _usage(f"--timeout {args.timeout} is not 100 to 60000 ms", "/timeout")
        from automium.capabilities import find  # noqa: PLC0415

        for document in documents:
            find("automium_compile_journey").answer(document)
    except AutomiumError as error:
        print(json.dumps(to_document(error.to_tool_error()), indent=1))
        return 2
    if getattr(args, "planner", None):
        from automium.planning import command as planned  # noqa: PLC0415

        return planned.main(args, documents, browser)
    try:
        outcomes = run_all(documents, args.out, faults, args.repeat, args.timeout, browser)
    except NoChromium as error:
        print(f"automium run: error: {error}", file=sys.stderr)
        return 2
    if args.json:  # one document per run; several runs print them as one JSON array
        summaries = [o.summary for o in outcomes]
        print(json.dumps(summaries[0] if len(summaries) == 1 else summaries, indent=1))
    else:
        print("\n".join(report(o) for o in outcomes))
    if args.trials_out is not None:
        args.trials_out.write_text(json.dumps(trials_document(outcomes), indent=1) + "\n")
    return max(_EXIT[o.verdict] for o in outcomes)


def run_all(  # noqa: PLR0917 - the command's options, in its order
    documents: Sequence[Json],
    out: Path | None,
    faults: tuple[Fault, ...],
    repeat: int,
    timeout_ms: int,
    browser: Browser | None = None,
) -> list[Outcome]:
    from automium.execution.browser import launched  # noqa: PLC0415
    from automium.execution.executor import Options, run_journey  # noqa: PLC0415

    if browser is None:
        with launched() as launched_browser:
            return run_all(documents, out, faults, repeat, timeout_ms, launched_browser)
    return [
        run_journey(document, browser, Options(out, timeout_ms, faults, repetition))
        for document in documents
        for repetition in range(1, repeat + 1)
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
