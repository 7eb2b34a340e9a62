"""Trials run by N workers on one machine, each with a browser of its own.

A run's time is mostly waiting (for the page, for a planner), so workers pay off even on
few cores. Each worker is a thread with its own Playwright driver and browser (Playwright's
sync API is one instance per thread) and takes the next trial as it is free; each trial
still gets its own app server, fixture state, browser context and run directory, so what a
trial records does not depend on which worker ran it or when. Outcomes come back in the
order of the trials given.

A browser that dies fails only the trial it was running (the executor records it as
errored, ``runtime.crashed``); the worker launches a fresh browser for its next trial.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from playwright.sync_api import Browser

T = TypeVar("T")
Json = dict[str, Any]
MAX_WORKERS = 16


@contextmanager
def _browsers(launch: Callable[[], Browser]) -> Iterator[Callable[[], Browser]]:
    """A worker's browser: the same one while it lives, a fresh one after it died."""
    held: list[Browser] = []

    def current() -> Browser:
        if held and not held[0].is_connected():
            held.clear()
        if not held:
            held.append(launch())
        return held[0]

    try:
        yield current
    finally:
        if held and held[0].is_connected():
            held[0].close()


def run_in_workers(
    items: Sequence[T],
    run: Callable[[T, Browser], Any],
    workers: int,
    launch_in: Callable[[Any], Browser],
    on_done: Callable[[Any], None] = lambda _outcome: None,
) -> list[Any]:
    """``run(item, browser)`` for every item, by ``workers`` threads, in the items' order.

    ``launch_in(playwright)`` launches (or connects to) a worker's browser; ``on_done`` is
    called with each outcome as it comes (from the worker's thread, one at a time).
    """
    from playwright.sync_api import sync_playwright  # noqa: PLC0415

    outcomes: list[Any] = [None] * len(items)
    pending = iter(range(len(items)))
    lock = threading.Lock()
    failures: list[BaseException] = []

    def take() -> int | None:
        with lock:
            return None if failures else next(pending, None)

    def work() -> None:
        try:
            with (
                sync_playwright() as playwright,
                _browsers(lambda: launch_in(playwright)) as browser,
            ):
                while (index := take()) is not None:
                    outcome = run(items[index], browser())
                    with lock:
                        outcomes[index] = outcome
                        on_done(outcome)
        except BaseException as error:  # handed to the caller's thread
            with lock:
                failures.append(error)

    threads = [threading.Thread(target=work, daemon=True) for _ in range(min(workers, len(items)))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise failures[0]
    return outcomes
