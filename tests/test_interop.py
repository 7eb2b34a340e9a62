"""Interop: third-party MCP clients and suites against the real ``automium serve``.

Node-based tests use the packages pinned in tests/interop/package-lock.json, installed by
``make pytest`` (``npm ci``); they never install anything. Each is skipped, with the reason,
when ``node`` or ``npx`` is missing or those packages are not installed. Servers run as
subprocesses on free ports, with bounded polling waits.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from mcp import Client

from automium.mcp_server.http import RefusedHost, check_host, security_settings
from tests.safety.raw_http import INITIALIZE

pytestmark = pytest.mark.interop

INTEROP = Path(__file__).parent / "interop"
BASELINE = INTEROP / "conformance-baseline.yml"
SHIM = INTEROP / "node20-fs-globsync.mjs"
STDIO_SERVER = [sys.executable, "-m", "automium.mcp_server"]
_CONSOLE_SCRIPT = Path(sys.executable).with_name("automium")
AUTOMIUM = (
    [str(_CONSOLE_SCRIPT)]
    if _CONSOLE_SCRIPT.exists()
    else [sys.executable, "-c", "import sys; from automium.cli import main; sys.exit(main())"]
)
READY_SECONDS = 20.0
NODE_SECONDS = 180.0
# Scenarios every server can pass: none needs the suite's test_* fixtures.
GENERIC_SCENARIOS = {
    "server-initialize",
    "ping",
    "tools-list",
    "resources-list",
    "prompts-list",
    "server-sse-multiple-streams",
    "dns-rebinding-protection",
    "completion-complete",
    "logging-set-level",
}

_missing = [f"{tool} (not on PATH)" for tool in ("node", "npx") if shutil.which(tool) is None]
if not (INTEROP / "node_modules").is_dir():
    _missing.append("tests/interop/node_modules (`make interop-deps` installs it)")
needs_node = pytest.mark.skipif(
    bool(_missing), reason=f"Node interop skipped: no {' and no '.join(_missing)}"
)


def _run_node(
    args: list[str], timeout: float = NODE_SECONDS, **env: str
) -> subprocess.CompletedProcess[str]:
    if not (INTEROP / "node_modules").is_dir():
        pytest.fail("tests/interop/node_modules is missing: run `make interop-deps` (npm ci)")
    return subprocess.run(
        args,
        cwd=INTEROP,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def _post(url: str, body: dict[str, Any], headers: dict[str, str] | None = None) -> int:
    """POST ``body`` to the MCP endpoint with raw headers (Host included); the status code."""
    match = re.fullmatch(r"http://([\d.]+):(\d+)(/.*)", url)
    assert match, url
    connection = http.client.HTTPConnection(match[1], int(match[2]), timeout=10)
    try:
        connection.putrequest("POST", match[3], skip_host=True, skip_accept_encoding=True)
        all_headers = {
            "Host": f"{match[1]}:{match[2]}",
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            **(headers or {}),
        }
        payload = json.dumps(body).encode()
        for name, value in {**all_headers, "Content-Length": str(len(payload))}.items():
            connection.putheader(name, value)
        connection.endheaders(payload)
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def _wait_for_url(proc: subprocess.Popen[bytes], log: Path) -> str:
    deadline = time.monotonic() + READY_SECONDS
    while time.monotonic() < deadline:
        found = re.search(r"serving MCP at (http://\S+)", log.read_text())
        if found:
            url = found[1]
            # The socket listens already; poll until uvicorn answers (any HTTP status).
            while time.monotonic() < deadline:
                try:
                    _post(url, {"jsonrpc": "2.0", "id": 0, "method": "ping"})
                    return url
                except OSError:
                    time.sleep(0.05)
        if proc.poll() is not None:
            break
        time.sleep(0.05)
    pytest.fail(f"automium serve --http not ready in {READY_SECONDS}s:\n{log.read_text()}")


@pytest.fixture(scope="module")
def http_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``automium serve --http --port 0`` for this module; terminated afterwards."""
    log = tmp_path_factory.mktemp("http") / "server.stderr"
    with (
        log.open("w") as stderr,
        subprocess.Popen(
            [*AUTOMIUM, "serve", "--http", "--port", "0"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        ) as proc,
    ):
        try:
            yield _wait_for_url(proc, log)
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


# --- HTTP transport, from Python ------------------------------------------------------------


def test_serve_http_refuses_a_non_loopback_host_with_exit_code_2_before_binding() -> None:
    done = subprocess.run(
        [*AUTOMIUM, "serve", "--http", "--host", "0.0.0.0", "--port", "0"],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 2
    assert "'0.0.0.0'" in done.stderr
    assert "127.0.0.1" in done.stderr
    assert "serving MCP" not in done.stderr


@pytest.mark.parametrize(
    "host", ["0.0.0.0", "::", "::1", "192.168.1.10", "127.0.0.2", "example.com"]
)
def test_every_host_but_127_0_0_1_and_localhost_is_refused(host: str) -> None:
    with pytest.raises(RefusedHost, match=re.escape(repr(host))):
        check_host(host)


def test_localhost_is_bound_as_127_0_0_1() -> None:
    assert check_host("localhost") == "127.0.0.1"
    assert check_host("127.0.0.1") == "127.0.0.1"


def test_the_allow_lists_name_only_this_port_on_127_0_0_1_and_localhost() -> None:
    settings = security_settings(4200)
    assert settings.enable_dns_rebinding_protection
    assert settings.allowed_hosts == ["127.0.0.1:4200", "localhost:4200"]
    assert settings.allowed_origins == ["http://127.0.0.1:4200", "http://localhost:4200"]


def test_host_and_port_without_http_are_a_usage_error() -> None:
    done = subprocess.run(
        [*AUTOMIUM, "serve", "--port", "4200"],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 2
    assert "--http" in done.stderr


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({}, 200),
        ({"Host": "evil.example.com"}, 421),
        ({"Host": "127.0.0.1:1"}, 421),
        ({"Origin": "http://evil.example.com"}, 403),
        ({"Origin": "http://127.0.0.1:1"}, 403),
    ],
    ids=["own-host", "foreign-host", "other-port-host", "foreign-origin", "other-port-origin"],
)
def test_http_rejects_foreign_host_with_421_and_foreign_origin_with_403(
    http_url: str, headers: dict[str, str], status: int
) -> None:
    assert _post(http_url, INITIALIZE, headers) == status


def test_http_accepts_localhost_as_host_and_origin(http_url: str) -> None:
    port = urlsplit(http_url).port
    headers = {"Host": f"localhost:{port}", "Origin": f"http://localhost:{port}"}
    assert _post(http_url, INITIALIZE, headers) == 200


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_an_sdk_client_initializes_and_lists_tools_over_http(
    http_url: str, mode: str
) -> None:
    async with Client(http_url, mode=mode) as client:
        tools = await client.list_tools()
        result = await client.call_tool("automium_list_apps", {})
    assert len(tools.tools) == 7
    assert not result.is_error
    assert (result.structured_content or {})["apps"]


# --- the TypeScript SDK client (stdio) ------------------------------------------------------


@pytest.fixture(scope="module")
def ts_summary() -> dict[str, Any]:
    done = _run_node(["node", "ts-client.mjs", *STDIO_SERVER])
    try:
        summary: dict[str, Any] = json.loads(done.stdout)
    except json.JSONDecodeError:
        pytest.fail(f"ts-client.mjs printed no JSON (exit {done.returncode}):\n{done.stderr}")
    summary["exitCode"] = done.returncode
    return summary


@needs_node
def test_the_typescript_sdk_client_uses_every_tool_resource_and_prompt(
    ts_summary: dict[str, Any],
) -> None:
    assert ts_summary["failures"] == []
    assert ts_summary["exitCode"] == 0
    assert len(ts_summary["tools"]) == 7
    assert all(t["ok"] and t["clientValidated"] for t in ts_summary["tools"].values())
    assert len(ts_summary["resources"]) == 6
    assert len(ts_summary["prompts"]) == 3
    assert ts_summary["badInput"]["code"] == "unsupported_intent"


@needs_node
def test_the_typescript_client_validator_ignores_no_output_schema_keyword(
    ts_summary: dict[str, Any],
) -> None:
    # Its Ajv is the draft-07 class with strict: false: an unknown keyword would be skipped
    # silently. Input schemas are not validated by the client; `discriminator` there is
    # an annotation (oneOf does the work).
    notes = ts_summary["schemaNotes"]
    assert {name: n["outputIgnoredByClientValidator"] for name, n in notes.items()} == {
        name: [] for name in notes
    }


@needs_node
@pytest.mark.xfail(
    strict=True,
    reason="TS SDK 1.x callTool validates structuredContent against outputSchema even when "
    "isError is true (typescript-sdk#1943; fixed in @modelcontextprotocol/client 2.x), so "
    "a tool-error document is refused with -32602 instead of reaching the application",
)
def test_a_typescript_sdk_application_can_read_a_tool_error_through_call_tool(
    ts_summary: dict[str, Any],
) -> None:
    assert ts_summary["badInput"]["viaCallTool"]["outcome"] == "returned"


# --- MCP Inspector CLI ----------------------------------------------------------------------


@needs_node
def test_the_inspector_strict_tools_list_reports_no_schema_portability_problem() -> None:
    done = _run_node(
        [
            "npx",
            "--no-install",
            "inspector",
            "--cli",
            "--strict",
            "--format",
            "json",
            "--method",
            "tools/list",
            *STDIO_SERVER,
        ]
    )
    assert done.returncode == 0, done.stderr
    envelope = json.loads(done.stdout)
    assert "schemaFindings" not in envelope
    assert len(envelope["result"]["tools"]) == 7
    assert not re.search(r"^(Error|Warning): tool", done.stderr, re.MULTILINE), done.stderr


# --- the conformance suite (Streamable HTTP) ------------------------------------------------


def _baseline() -> set[str]:
    # The file's format is fixed by the suite: `server:` then `  - <scenario> # reason`.
    return set(re.findall(r"^\s+-\s+([\w-]+)", BASELINE.read_text(), re.MULTILINE))


def _scenario_results(results: Path) -> dict[str, bool]:
    """Scenario -> passed, read like the suite does: no FAILURE and no WARNING check."""
    outcome = {}
    for checks in results.glob("server-*/checks.json"):
        name = re.sub(r"^server-|-\d{4}-\d\d-\d\dT[\dZ-]+$", "", checks.parent.name)
        statuses = {check["status"] for check in json.loads(checks.read_text())}
        outcome[name] = not statuses & {"FAILURE", "WARNING"}
    return outcome


@needs_node
def test_the_conformance_suite_fails_only_the_fixture_scenarios_of_the_baseline(
    http_url: str, tmp_path: Path
) -> None:
    done = _run_node(
        [
            "npx",
            "--no-install",
            "conformance",
            "server",
            "--url",
            http_url,
            "--expected-failures",
            str(BASELINE),
            "--output-dir",
            str(tmp_path),
        ],
        NODE_OPTIONS=f"--import {SHIM.resolve()}",
    )
    outcome = _scenario_results(tmp_path)
    passed = {name for name, ok in outcome.items() if ok}
    failed = set(outcome) - passed
    print(f"conformance: {len(passed)} passed, {len(failed)} failed, baseline {len(_baseline())}")
    assert failed - _baseline() == set(), f"unexpected failures\n{done.stdout[-3000:]}"
    assert _baseline() - failed == set(), "stale baseline entries (now passing)"
    assert passed >= GENERIC_SCENARIOS
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
