"""A full MCP session over stdio opens no file for writing, even with no bytecode anywhere.

The server runs in a subprocess under :mod:`tests.safety.audit_writes`, an audit hook that
reports at exit every open for writing and every file-system change. The session is
complete: the handshake, every tool case of the safety suite (successes and refusals),
every resource, every prompt and a completion.

``PYTHONPYCACHEPREFIX`` points the interpreter at an empty bytecode cache, so no module of
the standard library, of the SDK or of any dependency has bytecode: an install on which
nothing was compiled (``uv pip install`` compiles nothing by default). Only the repository
package is compiled into it first, as ``make`` does at install time. A server that wrote
bytecode would write a ``.pyc`` for every module it imports; this one must write none,
and the cache must hold afterwards exactly what it held before (what the interpreter's
start-up and the harness's ``runpy`` compile before the hook is compiled in advance too).
The child runs without coverage: coverage's data files are the harness's writes, not the
server's.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cases import (
    RESOURCE_URIS,
    prompt_refusals,
    prompt_renders,
    tool_refusals,
    tool_successes,
)
from tests.safety.audit_writes import MARK
from tests.safety.raw_stdio import call, raw_server, request, without_coverage

pytestmark = pytest.mark.subprocess

ROOT = Path(__file__).resolve().parents[2]
WRAPPER = Path(__file__).with_name("audit_writes.py")


def _environment(cache: Path) -> dict[str, str]:
    env = {**without_coverage(), "PYTHONPYCACHEPREFIX": str(cache)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # the server must say so itself
    return env


def _prepare(cache: Path) -> None:
    """What ``make`` compiles at install (the repository package), and what the harness
    compiles before its hook (the interpreter's start-up and ``runpy``): into ``cache``."""
    package = ["-m", "compileall", "-q", "automium", "generated/automium_contracts"]
    for arguments in (package, ["-c", "import runpy"]):
        subprocess.run(
            [sys.executable, *arguments],
            cwd=ROOT,
            env=_environment(cache),
            check=True,
            timeout=120,
        )


def test_a_full_session_opens_no_file_for_writing(tmp_path: Path) -> None:
    cache = tmp_path / "pycache"
    _prepare(cache)
    compiled = sorted(cache.rglob("*.pyc"))
    env = _environment(cache)
    command = [sys.executable, str(WRAPPER), "automium.mcp_server"]
    with raw_server(tmp_path, command, env) as server:
        server.handshake()
        messages = [request(1, "tools/list")]
        messages += [call(100 + i, tool, args) for i, (tool, args) in enumerate(_tools())]
        messages += [request(2, "resources/list"), request(3, "prompts/list")]
        messages += [request(200 + i, "resources/read", {"uri": u}) for i, u in _resources()]
        messages += [
            request(300 + i, "prompts/get", {"name": name, "arguments": arguments})
            for i, (name, arguments) in enumerate(_prompts())
        ]
        messages.append(
            request(
                4,
                "completion/complete",
                {
                    "ref": {"type": "ref/prompt", "name": "draft_journey"},
                    "argument": {"name": "appId", "value": "sh"},
                },
            )
        )
        for message in messages:
            server.send(message)
        server.wait_for({json.loads(message)["id"] for message in messages})
        exit_code = server.close()

    stderr = b"".join(server.stderr).decode()
    writes = [line.removeprefix(MARK) for line in stderr.splitlines() if line.startswith(MARK)]
    assert exit_code == 0, stderr[-2000:]
    assert writes == []
    assert sorted(cache.rglob("*.pyc")) == compiled  # nothing was added to the cache either


def _tools() -> list[tuple[str, object]]:
    successes = [(tool, arguments) for _, tool, arguments in tool_successes()]
    return successes + [(tool, refusal.arguments) for _, tool, refusal in tool_refusals()]


def _resources() -> list[tuple[int, str]]:
    return list(enumerate(RESOURCE_URIS))


def _prompts() -> list[tuple[str, dict[str, str]]]:
    renders = [(name, arguments) for _, name, arguments in prompt_renders()]
    return renders + [(name, refusal.arguments) for _, name, refusal in prompt_refusals()]


def test_the_audit_hook_reports_what_a_writing_module_writes(tmp_path: Path) -> None:
    """The check can fail: ``compileall`` run under the hook writes ``__pycache__/*.pyc``."""
    (tmp_path / "module.py").write_text("X = 1\n")
    done = subprocess.run(
        [sys.executable, str(WRAPPER), "compileall", "-q", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
        env=without_coverage(),
    )
    assert done.returncode == 0, done.stderr
    writes = [line for line in done.stderr.splitlines() if line.startswith(MARK)]
    assert any("module.cpython" in line and "open for writing" in line for line in writes)
    assert any("os.mkdir" in line and "__pycache__" in line for line in writes)
