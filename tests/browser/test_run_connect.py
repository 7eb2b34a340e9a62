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
from playwright.sync_api import sync_playwright

from automium.cli import _parser
from automium.execution import command
from automium.execution.chromium import connect
from automium.execution.contexts import block_outside
from automium.hosting import AppServer
from tests.browser_server import launch_server, missing
from tests.export.runners import unavailable


@pytest.fixture(scope="module")
def endpoint() -> Iterator[str]:
    """A Playwright browser server on 127.0.0.1; its ws:// endpoint."""
    if reason := missing():
        unavailable(reason)
    with launch_server() as found:
        yield found


def test_reference_journeys_pass_on_a_remote_browser_as_on_a_local_one(
    endpoint: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["run", "todo-mvc", "bank-sandbox.transfer-to-savings", "--connect", endpoint]
    argv += ["--out", str(tmp_path), "--json"]
    code = command.main(_parser().parse_args(argv))
    summaries = json.loads(capsys.readouterr().out)
    assert code == 0
    assert [s["verdict"] for s in summaries] == ["passed"] * 4


def test_a_remote_browser_reaches_the_app_on_loopback_and_nothing_else(endpoint: str) -> None:
    with AppServer("todo-mvc", "todo-mvc.empty") as server, sync_playwright() as playwright:
        browser = connect(playwright, endpoint)
        context = browser.new_context()
        block_outside(context)  # as a run's context over --connect
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
            browser.close()
    assert response is not None
    assert (response.status, fetched, socket) == (200, ["blocked", "blocked", 200], 1008)


def test_an_endpoint_that_is_not_a_websocket_is_refused_before_anything_runs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["run", "todo-mvc", "--connect", "http://127.0.0.1:3000/"]
    assert command.main(_parser().parse_args(argv)) == 2
    error = json.loads(capsys.readouterr().out)
    assert (error["code"], error["path"]) == ("invalid_input", "/connect")
