"""The warm-up thread: started once, by the first tools/list, and it loads everything."""

from __future__ import annotations

import logging

import pytest

from automium.mcp_server import warmup


def test_the_warm_up_runs_once_and_loads_every_capability_and_page(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(warmup, "_once", [])
    caplog.set_level(logging.DEBUG, logger="automium.mcp")
    warmup.start()
    warmup.start()
    (thread,) = warmup._once
    thread.join(timeout=30)
    assert (thread.name, thread.daemon, thread.is_alive()) == ("automium-warm-up", True, False)
    # A failure would only leave a first call to load it itself: the log is how it shows.
    assert not [r for r in caplog.records if r.name == "automium.mcp"]
