"""Trials run by N workers on one machine, each with a browser of its own.

A run's time is mostly waiting (for the page, for a planner), so workers pay off even on
few cores. Each worker is a thread with its own Playwright driver and browser (Playwright's
sync API is one instance per thread) and takes the next trial as it is free; each trial
still gets its own app server, fixture state, browser context and run directory, so what a
trial records does not depend on which worker ran it or when. Outcomes come back in the
order of the trials given.

A browser that dies fails only the trial it was running (the executor records it as
errored, ``runtime.crashed``); the worker launches a fresh browser for its next trial.

A signal reaches the main thread only, which waits on the workers. It stops them: no
worker takes another trial, and each worker's browser is closed under the trial it runs,
which then ends at once as a run cut off by that signal (:func:`stopped_by`), with its
events up to the cut and a manifest marked ``interrupted``. Then the signal goes on.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar
from weakref import WeakKeyDictionary

from automium.execution.cutoff import cause_of

if TYPE_CHECKING:
    from playwright.sync_api import Browser

T = TypeVar("T")
Json = dict[str, Any]
MAX_WORKERS = 16
STOP_GRACE_S = 30.0  # for a stopped worker to write what its trial left
_STOPPED: WeakKeyDictionary[Browser, str] = WeakKeyDictionary()


def stopped_by(browser: Browser) -> str | None:
    """The signal's cause (``sigint``, ``sigterm``) when the workers were stopped by one and
    ``browser`` closed for it; ``None`` when it went away on its own."""
    return _STOPPED.get(browser)


class Stopped(Exception):
    """A trial ended by the stop, not by its own outcome: its worker takes no other."""


class _Pool:
    """The workers' browsers, and the stop a signal makes."""

    def __init__(self, on_stop: Callable[[], None]) -> None:
        self.on_stop = on_stop
        self.lock = threading.Lock()
        self.cause: str | None = None
        self.browsers: list[Browser] = []

    def add(self, browser: Browser) -> Browser:
        with self.lock:
            if self.cause is not None:
                raise Stopped
            self.browsers.append(browser)
            return browser

    def stop(self, cause: str) -> None:
        """Close every worker's browser from this thread. Playwright's sync objects belong
        to the thread that made them, so the close is handed to the event loop of the
        worker's thread, which runs it while the worker waits on its page."""
        with self.lock:
            self.cause = cause
            for browser in self.browsers:
                if browser.is_connected():
                    _STOPPED[browser] = cause
                    sync: Any = browser
                    asyncio.run_coroutine_threadsafe(
                        sync._impl_obj.close("the run was stopped"), sync._loop
                    )
        self.on_stop()  # what else a worker may wait on: a planner's process


@contextmanager
def _browsers(launch: Callable[[], Browser], pool: _Pool) -> Iterator[Callable[[], Browser]]:
    """A worker's browser: the same one while it lives, a fresh one after it died."""
    held: list[Browser] = []

    def current() -> Browser:
        if held and not held[0].is_connected():
            held.clear()
        if not held:
            held.append(pool.add(launch()))
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
    *,
    on_done: Callable[[Any], None] = lambda _outcome: None,
    on_stop: Callable[[], None] = lambda: None,
) -> list[Any]:
    """``run(item, browser)`` for every item, by ``workers`` threads, in the items' order.

    ``launch_in(playwright)`` launches (or connects to) a worker's browser; ``on_done`` is
    called with each outcome as it comes (from the worker's thread, one at a time);
    ``on_stop``, from the caller's thread when a signal stops the workers, ends what else
    they wait on.
    """
    from playwright.sync_api import sync_playwright  # noqa: PLC0415

    outcomes: list[Any] = [None] * len(items)
    pending = iter(range(len(items)))
    lock = threading.Lock()
    failures: list[BaseException] = []
    pool = _Pool(on_stop)

    def take() -> int | None:
        with lock:
            return None if failures or pool.cause is not None else next(pending, None)

    def work(done: threading.Event) -> None:
        try:
            with (
                sync_playwright() as playwright,
                _browsers(lambda: launch_in(playwright), pool) as browser,
            ):
                while (index := take()) is not None:
                    outcome = run(items[index], browser())
                    with lock:
                        outcomes[index] = outcome
                        on_done(outcome)
        except Stopped:
            pass
        except BaseException as error:  # handed to the caller's thread
            with lock:
                failures.append(error)
        finally:
            done.set()

    # The caller waits on each worker's event, not on the thread: a join that a signal cuts
    # short leaves the thread looking finished while it runs (CPython 3.11).
    finished = [threading.Event() for _ in range(min(workers, len(items)))]
    for done in finished:
        threading.Thread(target=work, args=(done,), daemon=True).start()
    try:
        for done in finished:
            done.wait()
    except BaseException as stop:  # Ctrl-C, or SIGTERM's Interrupted
        pool.stop(cause_of(stop))
        deadline = time.monotonic() + STOP_GRACE_S
        for done in finished:
            done.wait(max(deadline - time.monotonic(), 0))
        raise
    if failures:
        raise failures[0]
    return outcomes
