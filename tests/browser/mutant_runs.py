"""The real column of the mutants' confusion matrix (:mod:`tests.journey_mutants`): each
mutant run in headless Chromium by the executor, in process.

A mutant compile refuses is run too (``run_journey(..., refused_too=True)``): the executor
then skips compile and acts on each target as written, so a refusal of a journey that passes
for real (a false refusal) shows up. A run that passes is ``passed``; any other verdict
(failed, errored, blocked) is ``failed``.

The CI set takes ``CI_PER_CLASS`` mutants of each class, spread evenly over it (all of a
class with fewer), and every correct variant; the quick set one of each class. Runs go
``WORKERS`` at a time, each worker with its own Playwright and browser on its own thread
(Playwright's sync API belongs to the thread that started it).
"""

from __future__ import annotations

import tempfile
import threading
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Browser, sync_playwright

from automium.contracts import Verdict
from automium.execution.chromium import launch
from automium.execution.executor import Options, run_journey
from tests.journey_mutants import CLASSES, VERDICTS, Mutant, mutants, static_verdict

TIMEOUT_MS = 1000
"""Each action's and assertion's bound: the apps render synchronously, so a second is
ample for what holds, and a failing assertion costs at most that per attempt."""
CI_PER_CLASS = 45
QUICK_PER_CLASS = 1
WORKERS = 2
PASSED, FAILED = "passed", "failed"


@dataclass(frozen=True)
class Measured:
    mutant: Mutant
    static: str  # one of VERDICTS
    real: str  # passed or failed
    detail: str  # the run's verdict and, when it failed, where


def chosen(per_class: int) -> list[Mutant]:
    """``per_class`` mutants of each class, spread evenly over it, and correct variants:
    every one with ``per_class`` >= ``CI_PER_CLASS``, else ``per_class`` of them too."""
    every = mutants()
    picked: list[Mutant] = []
    for klass in (*CLASSES, "correct"):
        members = [m for m in every if m.klass == klass]
        if klass == "correct" and per_class >= CI_PER_CLASS:
            picked.extend(members)
            continue
        count = min(per_class, len(members))
        picked.extend(members[((2 * i + 1) * len(members)) // (2 * count)] for i in range(count))
    return picked


def _run_one(mutant: Mutant, browser: Browser, out: Path) -> Measured:
    static = static_verdict(mutant.journey)
    outcome = run_journey(
        dict(mutant.journey),
        browser,
        # A folder of its own: a mutant compile refuses leaves no manifest, so a second
        # mutant of the same run id could not replace its run directory.
        Options(Path(tempfile.mkdtemp(dir=out)), TIMEOUT_MS, video=False),
        refused_too=True,
    )
    passed = outcome.verdict is Verdict.PASSED
    where = "" if passed else f" at {outcome.failing_step} ({outcome.failing_lane})"
    return Measured(mutant, static, PASSED if passed else FAILED, outcome.verdict.value + where)


def measure(
    picked: Sequence[Mutant],
    browser: Browser | None = None,
    workers: int = WORKERS,
    progress: Callable[[str], None] = lambda _: None,
) -> list[Measured]:
    """Every mutant of ``picked`` with its static verdict and real outcome, in order.
    ``browser``: one already launched on this thread, used by the first worker."""
    results: dict[int, Measured] = {}
    errors: list[BaseException] = []
    lock = threading.Lock()

    def work(share: list[int], given: Browser | None) -> None:
        try:
            with tempfile.TemporaryDirectory() as folder:
                if given is not None:
                    _share(share, given, Path(folder))
                    return
                with sync_playwright() as playwright:
                    own = launch(playwright)
                    try:
                        _share(share, own, Path(folder))
                    finally:
                        own.close()
        except BaseException as error:  # re-raised on the calling thread
            errors.append(error)

    def _share(share: list[int], browser_: Browser, out: Path) -> None:
        for index in share:
            measured = _run_one(picked[index], browser_, out)
            with lock:
                results[index] = measured
                progress(f"{len(results)}/{len(picked)} {measured.mutant.name}: {measured.real}")

    indexes = list(range(len(picked)))
    shares = [indexes[w::workers] for w in range(workers)]
    threads = [
        threading.Thread(target=work, args=(share, None))
        for share in shares[1 if browser is not None else 0 :]
    ]
    for thread in threads:
        thread.start()
    if browser is not None:
        work(shares[0], browser)
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return [results[i] for i in indexes]


def matrix(measured: Sequence[Measured]) -> Counter[tuple[str, str]]:
    """Counts of (real outcome, static verdict)."""
    return Counter((m.real, m.static) for m in measured)


def render(measured: Sequence[Measured]) -> str:
    """The confusion matrix (real × static) and the mutants per class."""
    counts = matrix(measured)
    lines = ["real \\ static  " + "  ".join(f"{v:>15}" for v in VERDICTS)]
    for row in (FAILED, PASSED):
        lines.append(f"{row:<14} " + "  ".join(f"{counts.get((row, v), 0):>15}" for v in VERDICTS))
    per_class = Counter(m.mutant.klass for m in measured)
    lines.append(
        f"{len(measured)} journeys: "
        + ", ".join(f"{k} {per_class[k]}" for k in (*CLASSES, "correct") if per_class[k])
    )
    return "\n".join(lines)


def silent_failures(measured: Sequence[Measured]) -> list[str]:
    """Journeys that fail for real that compile called valid with nothing naming the risk."""
    return [
        f"{m.mutant.name}: {m.detail}" for m in measured if (m.real, m.static) == (FAILED, "valid")
    ]


def false_refusals(measured: Sequence[Measured], *, vacuous: bool = False) -> list[str]:
    """Journeys compile refused that pass for real: those that pass only vacuously (see
    :func:`passes_vacuously`) with ``vacuous``, the others without."""
    return [
        m.mutant.name
        for m in measured
        if (m.real, m.static) == (PASSED, "refused") and passes_vacuously(m.mutant) == vacuous
    ]


def passes_vacuously(mutant: Mutant) -> bool:
    """A ``hidden`` assertion on a name nowhere in the app: a run passes it, as nothing of
    that name is ever shown, and compile refuses it (issue 23: a target that exists nowhere
    in the app is always refused; it is a typo, and the assertion checks nothing)."""
    return mutant.klass == "target" and any(
        a["kind"] == "hidden" and a.get("target", {}).get("name", "").endswith(" Zzq")
        for a in mutant.journey["assertions"]
    )


def main() -> None:
    """Print the confusion matrix of the CI set (``python -m tests.browser.mutant_runs``)."""
    import sys  # noqa: PLC0415

    measured = measure(chosen(CI_PER_CLASS), progress=lambda line: print(line, file=sys.stderr))
    print(render(measured))
    for name in silent_failures(measured):
        print(f"fails for real, called valid silently: {name}")
    for name in false_refusals(measured):
        print(f"refused, passes for real: {name}")


if __name__ == "__main__":
    main()
