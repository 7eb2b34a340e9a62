"""The end of a run cut off before it finished, for a journey's run and a planner's trial.

Its events go up to the cut (``runtime.crashed`` saying why, then ``run.finished`` errored
and the worker released), and its manifest, marked ``interrupted``, lists every file the
run left. When the disk is full, what cannot be written is left out.
"""

from __future__ import annotations

import contextlib
import json
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

from automium.contracts import EventType, ReplayLane, Verdict
from automium.execution.evidence import Interrupted, RunDir, raise_interrupted
from automium.execution.replay import Replay

Json = dict[str, Any]
WORKER_ID = "local-worker"


def cause_of(stop: BaseException) -> str:
    """``sigint`` for Ctrl-C, ``sigterm`` for the :class:`Interrupted` SIGTERM raises."""
    return stop.args[0].lower() if isinstance(stop, Interrupted) else "sigint"


@contextlib.contextmanager
def signals_cut_off() -> Iterator[None]:
    """While runs go on: SIGTERM cuts them off as Ctrl-C does, raised where the main thread
    is (signals reach it only) as :class:`Interrupted`."""
    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, raise_interrupted) if main_thread else None
    try:
        yield
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def stopped(stop: KeyboardInterrupt | Interrupted) -> int:
    """Say on stderr that a signal stopped the runs; its conventional exit code."""
    signum = signal.SIGINT if isinstance(stop, KeyboardInterrupt) else stop.signum
    print(
        f"automium run: stopped by {signal.Signals(signum).name}; each run cut off has its "
        "events and a manifest marked interrupted",
        file=sys.stderr,
    )
    return 128 + signum


def write_cut_off(  # noqa: PLR0917 - one run's parts, as both callers hold them
    folder: RunDir,
    replay: Replay,
    interruption: Json,
    retries: int,
    document: Json,
    masked: Callable[[str], str],
) -> None:
    """End the run in ``folder`` as cut off by ``interruption`` (its cause, and the step)."""
    step = interruption.get("stepId")
    reason = f"interrupted: {interruption['cause']}"
    replay.emit(ReplayLane.RUNTIME, EventType.RUNTIME_CRASHED, {"reason": reason}, step=step)
    replay.emit(
        ReplayLane.WORKER,
        EventType.RUN_FINISHED,
        {"retryCount": retries},
        verdict=Verdict.ERRORED,
    )
    replay.emit(ReplayLane.WORKER, EventType.WORKER_RELEASED, {"workerId": WORKER_ID})
    with contextlib.suppress(OSError):
        folder.write("replay.jsonl", masked(replay.ndjson().decode()).encode())
    with contextlib.suppress(OSError):
        folder.record_left()
        manifest = folder.manifest(Verdict.ERRORED.value, retries, document)
        manifest["interrupted"] = interruption
        folder.write("manifest.json", json.dumps(manifest, indent=1).encode())
