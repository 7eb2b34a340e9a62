"""Load, on a background thread, what each tool's first call would otherwise load.

The corpus, its page views, the contract checks and the models load on first use, which
keeps start-up as cheap as the bare SDK's; the first ``tools/list`` of a session starts this
thread, so that while the agent's model reads the list, the first call of every tool becomes
as fast as its later ones. A call that arrives sooner shares the work (an import waits for the
one under way) and is never wrong: what is loaded is immutable, and a cache entry computed
by both threads at once is computed twice, the same.
"""

from __future__ import annotations

import logging
import threading

log = logging.getLogger("automium.mcp")
_started = threading.Lock()
_once: list[threading.Thread] = []
# The thread waits this long before it loads anything: the list's response is still being
# serialised and written, and loading at once takes the GIL from it (measured: the list
# answered 13-25 ms after initialize instead of 5 ms). An agent's model reads for longer.
AFTER_THE_LIST_S = 0.05


def start() -> None:
    """Start the warm-up thread, once per process."""
    with _started:
        if not _once:
            timer = threading.Timer(AFTER_THE_LIST_S, _warm)
            timer.name, timer.daemon = "automium-warm-up", True
            _once.append(timer)
            timer.start()


def _warm() -> None:
    try:
        from automium import corpus
        from automium.capabilities import CAPABILITIES
        from automium.corpus.pages import prepare

        for capability in CAPABILITIES:
            capability.prepare()
        for fixture in corpus.fixtures():
            prepare(fixture)
        # From the packages, as every handler is named: a module imported on its own
        # while a call imports its package can meet that import half-done (a first call
        # failed so, in CI, when this imported automium.benchmark.runner directly).
        from automium.benchmark import app_journeys
        from automium.runs import reference_refs

        # What first calls derive from the corpus: each app's journey profiles (a
        # comparison's), each reference journey's ref (a submission's).
        for app_id in corpus.app_ids():
            app_journeys(app_id)
        reference_refs()
    except Exception:  # a failure here only means the first call loads it itself
        log.debug("warm-up stopped early", exc_info=True)
