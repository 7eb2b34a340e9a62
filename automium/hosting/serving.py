"""``automium apps serve``: the owned apps on 127.0.0.1, for a person's own browser.

With ``--app`` (and ``--fixture``, else the app's first), one app in one fixture's state;
without, every app that is served, each in its first fixture. Each base URL is printed on
stdout, flushed, before serving, so a script (or ``automium run``) can read it: one app
prints the bare URL, several print ``<app> <fixture> <url>`` per line. SIGINT and SIGTERM
stop it with exit code 0; 1 means a port could not be bound, 2 a usage error.
"""

from __future__ import annotations

import signal
import sys
import time
from dataclasses import dataclass
from importlib import resources

from automium import corpus
from automium.defaults import ACCEPTED_HOSTS, LOOPBACK
from automium.errors import AutomiumError
from automium.hosting.server import AppServer


class UsageError(ValueError):
    """A request ``apps serve`` refuses; the message says what is allowed."""


def served_apps() -> tuple[str, ...]:
    """The corpus's apps that exist as apps (a directory with an ``index.html``)."""
    root = resources.files("automium.corpus") / "apps"
    return tuple(a for a in corpus.app_ids() if (root / a / "index.html").is_file())


@dataclass(frozen=True)
class Plan:
    """Which app runs in which fixture, on which port (0: a free one)."""

    apps: tuple[tuple[str, str], ...]
    port: int
    one: bool  # asked for one app: its URL alone is printed


def plan(app_id: str | None, fixture_id: str | None, port: int | None, host: str | None) -> Plan:
    """What to serve, or :class:`UsageError` saying why not."""
    if host is not None and host not in ACCEPTED_HOSTS:
        raise UsageError(
            f"refusing to serve on {host!r}: the apps are served on {LOOPBACK} only "
            f"(--host {LOOPBACK} or localhost), never to another machine"
        )
    available = served_apps()
    try:
        if fixture_id is not None and app_id is None:
            app_id = next((f.app_id for f in corpus.fixtures() if f.id == fixture_id), None)
            if problem := corpus.fixture_problem(fixture_id, None, "--fixture"):
                raise AutomiumError([problem])
        if app_id is None:
            if port not in (None, 0):
                raise UsageError("--port serves one app: give --app (or --fixture) too")
            return Plan(tuple((a, corpus.fixtures(a)[0].id) for a in available), 0, one=False)
        corpus.get_app(app_id, "--app")
        if fixture_id is not None:
            corpus.get_fixture(fixture_id, app_id, "--fixture")
    except AutomiumError as exc:
        problem = exc.problems[0]
        allowed = f" (allowed: {', '.join(map(str, problem.allowed))})" if problem.allowed else ""
        raise UsageError(f"{problem.code.value}: {problem.message}{allowed}") from exc
    if app_id not in available:
        raise UsageError(
            f"{app_id!r} is in the corpus but not built as an app yet "
            f"(served apps: {', '.join(available)})"
        )
    return Plan(((app_id, fixture_id or corpus.fixtures(app_id)[0].id),), port or 0, one=True)


def serve(plan: Plan) -> int:
    """Serve until SIGINT or SIGTERM; the exit code."""
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    servers: list[AppServer] = []
    try:
        for app_id, fixture_id in plan.apps:
            servers.append(AppServer(app_id, fixture_id, port=plan.port).start())
        for server in servers:
            line = server.url if plan.one else f"{server.app_id} {server.fixture_id} {server.url}"
            print(line, flush=True)
        while True:  # until a signal: the servers run on their own threads
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    except OSError as exc:
        message = f"cannot listen on port {plan.port}: {exc}"
        print(f"automium apps serve: error: {message}", file=sys.stderr)
        return 1
    finally:
        for server in servers:
            server.stop()
    return 0


def main(app_id: str | None, fixture_id: str | None, port: int | None, host: str | None) -> int:
    try:
        chosen = plan(app_id, fixture_id, port, host)
    except UsageError as exc:
        print(f"automium apps serve: error: {exc}", file=sys.stderr)
        return 2
    return serve(chosen)
