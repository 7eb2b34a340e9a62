"""End to end over a real stdio subprocess, as an agent launches the server."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

from automium import __version__
from tests.cases import TOOLS

pytestmark = [pytest.mark.subprocess, pytest.mark.anyio]

SERVER = StdioServerParameters(command=sys.executable, args=["-m", "automium.mcp_server"])


async def test_a_session_over_stdio_lists_and_calls_every_tool() -> None:
    async with Client(SERVER) as client:
        assert len((await client.list_tools()).tools) == len(TOOLS)
        for tool, cases in TOOLS.items():
            arguments = next(iter(cases.successes.values()))
            result = await client.call_tool(tool, arguments)  # the client checks outputSchema
            assert not result.is_error, tool
        assert len((await client.list_resources()).resources) == 6


async def test_the_handshake_era_works_over_stdio_too() -> None:
    async with Client(SERVER, mode="legacy") as client:
        assert client.protocol_version == "2025-11-25"
        listed = await client.list_prompts()
        assert listed.prompts[0].name == "draft_journey"


def _automium(*args: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    """The ``automium`` command, as a newcomer types it."""
    command = [sys.executable, "-m", "automium.cli", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)


def test_the_demo_command_walks_the_developer_experience_path_in_order() -> None:
    # `make demo` runs this: the CLI parses `demo` and runs the session over stdio.
    result = _automium("demo", timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    lines = result.stdout.splitlines()
    assert lines[-1] == "Demo passed: 11 steps behaved as expected. Nothing was executed."
    steps = [line for line in lines if line[:2].strip().rstrip(".").isdigit()]
    assert [s.split(". ", 1)[1].split(" ")[0:2] for s in steps] == [
        ["read", "automium://apps"],
        ["read", "automium://fixtures"],
        ["get", "prompt"],
        ["call", "automium_compile_journey(shop-lite.buyer-signs-in)"],  # the prompt's example
        ["call", "automium_create_run_submission"],
        ["call", "automium_create_run_submission"],  # its failing variant
        ["call", "automium_get_replay_summary"],
        ["call", "automium_get_artifact_manifest"],
        ["get", "prompt"],
        ["call", "automium_compare_planners"],
        ["a", "deliberate"],
    ]
    assert not any("UNEXPECTED" in line for line in lines)


@pytest.mark.parametrize("option", [["--port", "4201"], ["--host", "localhost"]])
def test_serve_refuses_http_options_without_http(option: list[str]) -> None:
    result = _automium("serve", *option)
    assert result.returncode == 2
    assert "--host, --port and --read-timeout need --http" in result.stderr


def test_the_cli_prints_its_version() -> None:
    result = _automium("--version")
    assert (result.returncode, result.stdout.strip()) == (0, f"automium {__version__}")


def test_serve_exits_cleanly_when_stdin_closes_and_writes_nothing_else() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "automium.mcp_server"],
        input=b"",
        capture_output=True,
        timeout=30,
        check=False,
    )
    assert (result.returncode, result.stdout) == (0, b"")
    assert b"Traceback" not in result.stderr


def test_serve_answers_a_file_of_requests_into_a_file(tmp_path: Path) -> None:
    # `automium serve < requests.jsonl > answers.jsonl`: a file cannot be waited on, and is
    # written in blocking mode; the last line needs no line end.
    requests = tmp_path / "requests.jsonl"
    requests.write_bytes(
        b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":'
        b'"2025-11-25","capabilities":{},"clientInfo":{"name":"file","version":"0"}}}\n'
        b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n'
        b"not json\n"
        b'{"jsonrpc":"2.0","id":2,"method":"tools/call","params":'
        b'{"name":"automium_list_apps","arguments":{}}}'
    )
    answers = tmp_path / "answers.jsonl"
    with requests.open("rb") as stdin, answers.open("wb") as stdout:
        result = subprocess.run(
            [sys.executable, "-m", "automium.mcp_server"],
            stdin=stdin,
            stdout=stdout,
            stderr=subprocess.PIPE,
            timeout=60,
            check=False,
        )
    assert result.returncode == 0, result.stderr.decode()[-2000:]
    # A refusal is written as soon as its line is read, an answer once it is computed.
    by_id = {line["id"]: line for line in map(json.loads, answers.read_bytes().splitlines())}
    assert sorted(by_id, key=str) == [1, 2, None]
    assert by_id[None]["error"]["code"] == -32700
    assert by_id[1]["result"]["serverInfo"]["name"] == "automium"
    assert by_id[2]["result"]["structuredContent"]["schemaVersion"] == "automium.app-catalog/v1"
