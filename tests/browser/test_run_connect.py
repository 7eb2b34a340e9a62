"""``automium run --connect``: journeys run on the browser of Playwright's own server.

The server is the pinned Node Playwright's ``launch-server`` on 127.0.0.1, launching the
Chromium everything else launches. The apps stay on this machine's loopback, reached
through the connection (``expose_network``), and nothing else is reachable from that
browser: the loopback-only guard holds over the connection too.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Playwright

from automium.cli import _parser
from automium.corpus import get_environment_profile
from automium.execution import command
from automium.execution.chromium import connect
from automium.execution.contexts import loopback_context
from automium.hosting import AppServer
from automium.planning import command as planning
from tests.browser_server import launch_server, missing
from tests.export.runners import unavailable


@pytest.fixture(scope="module")
def endpoint() -> Iterator[str]:
    """A Playwright browser server on 127.0.0.1; its ws:// endpoint."""
    if reason := missing():
        unavailable(reason)
    with launch_server() as found:
        yield found


@pytest.fixture(scope="module")
def remote(playwright_driver: Playwright, endpoint: str) -> Iterator[Browser]:
    """The server's browser, on the tier's driver (a second sync driver on this thread
    could not start while the tier's runs)."""
    browser = connect(playwright_driver, endpoint)
    yield browser
    browser.close()


def test_reference_journeys_pass_on_a_remote_browser_as_on_a_local_one(
    endpoint: str, remote: Browser, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["run", "todo-mvc", "bank-sandbox.transfer-to-savings", "--connect", endpoint]
    argv += ["--out", str(tmp_path), "--json"]
    code = command.main(_parser().parse_args(argv), remote)
    summaries = json.loads(capsys.readouterr().out)
    assert code == 0
    assert [s["verdict"] for s in summaries] == ["passed"] * 4


def test_planner_trials_run_on_a_remote_browser_judged_as_on_a_local_one(
    endpoint: str, remote: Browser, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["run", "bank-sandbox.locked-customer-signs-in", "--planner", "scripted-journey"]
    argv += ["--connect", endpoint, "--out", str(tmp_path), "--json"]
    code = planning.command(_parser().parse_args(argv), remote)
    trials = json.loads(capsys.readouterr().out)
    assert code == 0
    assert [(t["plannerId"], t["passed"]) for t in trials] == [("scripted-journey", True)]


def test_a_remote_browser_reaches_the_app_on_loopback_and_nothing_else(remote: Browser) -> None:
    profile = get_environment_profile("desktop-1280x720")
    with AppServer("todo-mvc", "todo-mvc.empty") as server:
        context = loopback_context(remote, profile, connected=True)  # as a run's, over --connect
        try:
            page = context.new_page()
            response = page.goto(server.url + "/")
            fetched = [
                page.evaluate("u => fetch(u).then(r => r.status, e => 'blocked')", url)
                for url in ("https://example.com/", "http://localhost:9/", server.url + "/")
            ]
            socket = page.evaluate(
                """() => new Promise(done => {
                    const socket = new WebSocket("wss://example.com/");
                    socket.onclose = event => done(event.code);
                })"""
            )
        finally:
            context.close()
    assert response is not None
    assert (response.status, fetched, socket) == (200, ["blocked", "blocked", 200], 1008)


def test_an_endpoint_that_is_not_a_websocket_is_refused_before_anything_runs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["run", "todo-mvc", "--connect", "http://127.0.0.1:3000/"]
    assert command.main(_parser().parse_args(argv)) == 2
    error = json.loads(capsys.readouterr().out)
    assert (error["code"], error["path"]) == ("invalid_input", "/connect")
