"""Playwright's own browser server on 127.0.0.1, for ``automium run --connect``: the pinned
Node Playwright's ``launch-server``, launching the Chromium everything else launches."""

from __future__ import annotations

import json
import os
import selectors
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from automium.execution.chromium import LAUNCH_ARGS, find_chromium

NODE_PACKAGE = Path(__file__).resolve().parent / "export"
PLAYWRIGHT_CLI = NODE_PACKAGE / "node_modules" / "@playwright" / "test" / "cli.js"
START_SECONDS = 60


def missing() -> str | None:
    """What the server needs that this machine lacks, or None."""
    if shutil.which("node") is None or not PLAYWRIGHT_CLI.is_file():
        return "no Node or no tests/export/node_modules (`make export-deps`)"
    if find_chromium() is None:
        return "no Chromium (`make browser`)"
    return None


@contextmanager
def launch_server() -> Iterator[str]:
    """A browser server for as long as the context lasts; its ``ws://`` endpoint."""
    if reason := missing():
        raise RuntimeError(reason)
    with tempfile.TemporaryDirectory() as folder:
        config = Path(folder) / "launch-server.json"
        options = {"executablePath": str(find_chromium()), "args": list(LAUNCH_ARGS)}
        config.write_text(json.dumps(options | {"headless": True, "host": "127.0.0.1", "port": 0}))
        argv = ["launch-server", "--browser", "chromium", "--config", str(config)]
        server = subprocess.Popen(
            [shutil.which("node") or "node", str(PLAYWRIGHT_CLI), *argv],
            cwd=NODE_PACKAGE,
            stdout=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        try:
            assert server.stdout is not None
            with selectors.DefaultSelector() as ready:
                ready.register(server.stdout, selectors.EVENT_READ)
                if not ready.select(START_SECONDS):
                    raise RuntimeError("the browser server printed no endpoint")
            endpoint = server.stdout.readline().strip()
            if not endpoint.startswith("ws://127.0.0.1:"):
                raise RuntimeError(f"the browser server printed {endpoint!r}, not an endpoint")
            yield endpoint
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(10)
            if server.stdout is not None:
                server.stdout.close()
