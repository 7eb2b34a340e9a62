"""``automium apps serve``: the owned apps on loopback for a person's own browser."""

from __future__ import annotations

import http.client
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit

import pytest

from automium.hosting.serving import served_apps

# Every test here starts `automium apps serve` in a process of its own.
pytestmark = pytest.mark.subprocess

COMMAND = [sys.executable, "-m", "automium.cli", "apps", "serve"]


@contextmanager
def serving(*args: str) -> Iterator[tuple[subprocess.Popen[str], list[str]]]:
    """The command running, with the lines it printed before serving."""
    process = subprocess.Popen(
        [*COMMAND, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert process.stdout is not None
    lines = [process.stdout.readline().rstrip("\n")]
    if not args:
        lines += [process.stdout.readline().rstrip("\n") for _ in served_apps()[1:]]
    try:
        yield process, lines
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate(timeout=10)


def get(url: str) -> tuple[int, str]:
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10)
    try:
        connection.request("GET", parts.path or "/")
        response = connection.getresponse()
        return response.status, response.read().decode()
    finally:
        connection.close()


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_one_app_prints_its_url_serves_every_route_and_stops_cleanly_on_a_signal(
    stop: signal.Signals,
) -> None:
    with serving("--app", "todo-mvc", "--fixture", "todo-mvc.three-items") as (process, lines):
        (url,) = lines
        assert urlsplit(url).scheme == "http"
        assert urlsplit(url).hostname == "127.0.0.1"
        for path in ("/", "/active", "/completed"):
            status, body = get(url + path)
            assert status == 200
            assert '"fixtureId": "todo-mvc.three-items"' in body
        process.send_signal(stop)

        assert process.wait(timeout=10) == 0


def test_without_flags_every_app_is_served_in_its_first_fixture_one_line_each() -> None:
    with serving() as (process, lines):
        served = [line.split(" ") for line in lines]
        assert [app for app, _, _ in served] == list(served_apps())
        assert all(fixture.startswith(f"{app}.") for app, fixture, _ in served)
        for _, fixture, url in served:
            assert f'"fixtureId": "{fixture}"' in get(url + "/")[1]
        process.send_signal(signal.SIGTERM)

        assert process.wait(timeout=10) == 0


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMAND, *args], capture_output=True, text=True, check=False, timeout=30
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--host", "0.0.0.0"],
            "refusing to serve on '0.0.0.0': the apps are served on 127.0.0.1 only",
        ),
        (["--fixture", "nope"], 'unknown_fixture: "nope" is not a fixture of corpus'),
        (["--app", "nope"], 'invalid_app_id: "nope" is not an app of corpus'),
        (
            ["--app", "todo-mvc", "--fixture", "shop-lite.guest-empty-cart"],
            'fixture_app_mismatch: fixture "shop-lite.guest-empty-cart" belongs to app '
            '"shop-lite", not "todo-mvc" (allowed: todo-mvc.empty, todo-mvc.three-items)',
        ),
        (["--port", "8123"], "--port serves one app: give --app (or --fixture) too"),
    ],
)
def test_a_request_it_cannot_serve_is_a_usage_error_saying_what_is_allowed(
    args: list[str], message: str
) -> None:
    result = run(*args)

    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.startswith(f"automium apps serve: error: {message}")
