"""The safety boundaries of the design, proven: no filesystem writes, no reads outside the
installed package data, no network, no subprocess, no secret reads.

Every tool (each success and refusal of ``tests/cases.py``, and each crafted hostile call of
:mod:`tests.safety.crafted` a client can send), every resource and every prompt (each render of
:func:`tests.safety.crafted.prompt_renders`, which gives every prompt the arguments it now
requires, and each refusal of both tables) runs through the real server, in memory, in both
protocol eras, under the audit-hook guard of :mod:`tests.safety.guard`. Each test first makes
every call once unguarded (imports, caches: the import system opens files outside the
package, and that is not the server's doing), then arms the guard — inside the running event
loop, so the loop's own self-pipe is already there — and makes every call again, building a
fresh server and session under guard. A violation recorded in that second pass fails the
test.

The guard itself is proven able to fail: each forbidden action, performed while armed, is
recorded. A static test adds what an audit hook cannot see: no module of ``automium``
imports a network, process or browser library, nor reaches for the environment.
"""

from __future__ import annotations

import ast
import os
import shutil
import socket
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from mcp import Client, MCPError, types

from automium.mcp_server.server import build_server
from tests.cases import (
    BAD_RESOURCE_URIS,
    RESOURCE_URIS,
    Refusal,
    prompt_refusals,
    tool_refusals,
    tool_successes,
)
from tests.safety.crafted import prompt_renders, prompt_rows, sendable_tool_rows
from tests.safety.guard import Guard, WatchedEnviron

ERAS = ["legacy", "auto"]


@pytest.fixture
def guard(monkeypatch: pytest.MonkeyPatch) -> Guard:
    """A guard, with ``os.environ`` watched for the test's duration (recording only while armed)."""
    monkeypatch.setattr(os, "environ", WatchedEnviron(os.environ))
    return Guard()


def _tool_refusals() -> list[tuple[str, str, Refusal]]:
    return [*tool_refusals(), *((f"crafted {c}", t, r) for c, t, r in sendable_tool_rows())]


def _prompt_refusals() -> list[tuple[str, str, Refusal]]:
    return [*prompt_refusals(), *((f"crafted {c}", p, r) for c, p, r in prompt_rows())]


async def _every_call(mode: str) -> dict[str, str | None]:
    """Run every tool case, resource and prompt; what each answered (an error code, or
    None)."""
    outcomes: dict[str, str | None] = {}
    async with Client(build_server(), mode=mode) as client:
        await client.list_tools()
        calls = [*tool_successes(), *((c, t, r.arguments) for c, t, r in _tool_refusals())]
        for case, tool, arguments in calls:
            result = await client.call_tool(tool, arguments)
            error = (result.structured_content or {}).get("code") if result.is_error else None
            outcomes[f"tool {case}"] = error
        await client.list_resources()
        for uri in (*RESOURCE_URIS, *BAD_RESOURCE_URIS):
            outcomes[f"resource {uri}"] = await _read(client, uri)
        await client.list_prompts()
        prompts = [*prompt_renders(), *((c, p, r.arguments) for c, p, r in _prompt_refusals())]
        for case, prompt, arguments in prompts:
            outcomes[f"prompt {case}"] = await _prompt(client, prompt, arguments)
        completion = await client.complete(
            types.PromptReference(type="ref/prompt", name="draft_journey"),
            {"name": "appId", "value": "sh"},
        )
        outcomes["completion appId"] = ",".join(completion.completion.values)
    return outcomes


async def _read(client: Client, uri: str) -> str | None:
    try:
        await client.read_resource(uri)
    except MCPError as exc:
        return _code(exc)
    return None


async def _prompt(client: Client, name: str, arguments: dict[str, str]) -> str | None:
    try:
        await client.get_prompt(name, arguments)
    except MCPError as exc:
        return _code(exc)
    return None


def _code(exc: MCPError) -> str:
    data = exc.data if isinstance(exc.data, dict) else {}
    return f"{exc.code}:{data.get('code')}"


def _expected() -> dict[str, str | None]:
    expected: dict[str, str | None] = {f"tool {case}": None for case, _, _ in tool_successes()}
    expected |= {f"tool {case}": r.code for case, _, r in _tool_refusals()}
    expected |= {f"resource {uri}": None for uri in RESOURCE_URIS}
    expected |= {f"resource {uri}": "-32602:unsupported_resource_uri" for uri in BAD_RESOURCE_URIS}
    expected |= {f"prompt {case}": None for case, _, _ in prompt_renders()}
    expected |= {f"prompt {case}": f"-32602:{r.code}" for case, _, r in _prompt_refusals()}
    expected["completion appId"] = "shop-lite"
    return expected


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ERAS)
async def test_every_tool_resource_and_prompt_stays_inside_the_boundaries(
    mode: str, guard: Guard
) -> None:
    await _every_call(mode)  # warm-up: imports and caches, unguarded
    with guard.armed():
        outcomes = await _every_call(mode)
    assert guard.violations == []
    assert outcomes == _expected()  # the guarded pass really ran every success and refusal


# -- the guard can fail ------------------------------------------------------------------

Action = Callable[[Path], object]


def _popen(_tmp: Path) -> None:
    with pytest.raises(FileNotFoundError):  # the event fires before anything runs
        subprocess.Popen(["/nonexistent/automium-guard-probe"])


def _fork(_tmp: Path) -> None:
    pid = os.fork()
    if pid == 0:  # the child leaves at once, without running any of pytest's cleanup
        os._exit(0)
    os.waitpid(pid, 0)


def _exec(_tmp: Path) -> None:
    with pytest.raises(FileNotFoundError):  # the event fires before the exec is attempted
        os.execv("/nonexistent/automium-guard-probe", ["probe"])


def _posix_spawn(_tmp: Path) -> None:
    with pytest.raises(FileNotFoundError):
        os.posix_spawn("/nonexistent/automium-guard-probe", ["probe"], {})


def _socket(_tmp: Path) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))  # bound, never connected nor listening


def _getaddrinfo(_tmp: Path) -> None:
    socket.getaddrinfo("127.0.0.1", 9, proto=socket.IPPROTO_TCP)  # numeric: no DNS query


def _read_outside(tmp: Path) -> None:
    (tmp / "outside.txt").read_text()


def _rmtree(tmp: Path) -> None:
    shutil.rmtree(tmp / "dir")


FORBIDDEN: dict[str, tuple[Action, str]] = {
    "open for writing": (lambda tmp: (tmp / "new.txt").write_text("x"), "open for writing"),
    "open for appending": (lambda tmp: (tmp / "outside.txt").open("a").close(), "open for writing"),
    "os.open O_CREAT": (
        lambda tmp: os.close(os.open(tmp / "raw.txt", os.O_CREAT | os.O_WRONLY)),
        "open for writing",
    ),
    "read outside the package": (_read_outside, "open outside the package"),
    "list a directory outside": (os.listdir, "os.listdir outside the package"),
    "socket": (_socket, "socket.bind"),
    "getaddrinfo": (_getaddrinfo, "socket.getaddrinfo"),
    "subprocess.Popen": (_popen, "subprocess.Popen"),
    "os.system": (lambda _tmp: os.system("true"), "os.system"),
    "os.exec": (_exec, "os.exec"),
    "os.posix_spawn": (_posix_spawn, "os.posix_spawn"),
    "os.fork": (_fork, "os.fork"),
    "os.remove": (lambda tmp: os.remove(tmp / "outside.txt"), "os.remove"),
    "os.unlink": (lambda tmp: os.unlink(tmp / "outside.txt"), "os.remove"),
    "os.rename": (lambda tmp: os.rename(tmp / "outside.txt", tmp / "moved.txt"), "os.rename"),
    "os.mkdir": (lambda tmp: os.mkdir(tmp / "made"), "os.mkdir"),
    "os.rmdir": (lambda tmp: os.rmdir(tmp / "dir"), "os.rmdir"),
    "shutil.rmtree": (_rmtree, "shutil.rmtree"),
    "shutil.copyfile": (
        lambda tmp: shutil.copyfile(tmp / "outside.txt", tmp / "copy.txt"),
        "shutil.copyfile",
    ),
    "os.environ.get of a token": (lambda _tmp: os.environ.get("API_TOKEN"), "'API_TOKEN'"),
    "os.getenv of a key": (lambda _tmp: os.getenv("OPENAI_API_KEY"), "'OPENAI_API_KEY'"),
    "os.environ[] of a password": (
        lambda _tmp: "DB_PASSWORD" in os.environ,
        "'DB_PASSWORD'",
    ),
    "os.environ.copy": (lambda _tmp: os.environ.copy(), "'AUTOMIUM_GUARD_SECRET'"),
}


@pytest.mark.parametrize("action", FORBIDDEN)
def test_the_guard_records_each_forbidden_action(
    action: str, guard: Guard, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(os.environ, "AUTOMIUM_GUARD_SECRET", "not-a-real-secret")
    (tmp_path / "outside.txt").write_text("outside")
    (tmp_path / "dir").mkdir()
    perform, recorded = FORBIDDEN[action]
    with guard.armed():
        perform(tmp_path)
    assert any(recorded in violation for violation in guard.violations), guard.violations


def test_the_guard_records_nothing_while_disarmed(guard: Guard, tmp_path: Path) -> None:
    (tmp_path / "x.txt").write_text("written while disarmed")
    os.environ.get("API_TOKEN")
    assert guard.violations == []


def test_reading_the_package_data_is_allowed(guard: Guard) -> None:
    corpus_file = Path(guard.allowed_roots[0]) / "corpus" / "data" / "corpus.v1.json"
    with guard.armed():
        corpus_file.read_text(encoding="utf-8")
    assert guard.violations == []


def test_opening_an_owned_apps_seed_is_recorded(guard: Guard) -> None:
    apps = Path(guard.denied_roots[0])
    seed = next(apps.glob("*/accounts.json"), None) or next(apps.rglob("*.json"))
    with guard.armed():
        seed.read_text(encoding="utf-8")
    assert guard.violations == [f"open of an owned app's files {str(seed)!r}"]


def test_listing_the_owned_apps_is_recorded(guard: Guard) -> None:
    apps = Path(guard.denied_roots[0])
    with guard.armed():
        os.listdir(apps)
    assert guard.violations == [f"os.listdir of an owned app's files {str(apps)!r}"]


# -- static: what an audit hook cannot see ------------------------------------------------

FORBIDDEN_IMPORTS = (
    "requests",
    "httpx",
    "httpx2",
    "urllib.request",
    "http.client",
    "socket",
    "subprocess",
    "playwright",
    "selenium",
    "pyppeteer",
    "asyncio.subprocess",
    "aiohttp",
    "webbrowser",
    "ftplib",
    "smtplib",
)
ENVIRONMENT_NAMES = frozenset({"environ", "environb", "getenv", "getenvb"})

# (module path relative to the repo, imported name) -> why it is allowed there.
ALLOWED_IMPORTS: dict[tuple[str, str], str] = {
    ("automium/mcp_server/http.py", "socket"): (
        "the Streamable HTTP transport binds its one listening socket to 127.0.0.1 itself "
        "(refusing any other host before binding); no tool, resource or prompt reaches it"
    ),
}

ROOT = Path(__file__).resolve().parents[2]


def _imported_names(tree: ast.AST) -> Iterator[str]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)


def _is_forbidden(name: str) -> bool:
    return any(name == bad or name.startswith(bad + ".") for bad in FORBIDDEN_IMPORTS)


def forbidden_imports(source: str, module: str) -> list[str]:
    found = sorted({n for n in _imported_names(ast.parse(source)) if _is_forbidden(n)})
    return [f"{module}: imports {name}" for name in found if (module, name) not in ALLOWED_IMPORTS]


def environment_reads(source: str, module: str) -> list[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in ENVIRONMENT_NAMES:
            found.add(node.attr)
        elif isinstance(node, ast.ImportFrom) and node.module == "os":
            found |= {a.name for a in node.names if a.name in ENVIRONMENT_NAMES}
    return [f"{module}: reads os.{name}" for name in sorted(found)]


# The adapters that serve the owned apps and drive a browser are outside the server's
# boundary by design: they open sockets, launch Chromium and read AUTOMIUM_CHROMIUM.
# tests/test_architecture.py proves the server and the domain never import them. Planner
# trials start planner processes, and hand them a scrubbed environment read from this one.
ADAPTERS = ("automium/hosting/", "automium/execution/", "automium/planning/")


def _modules() -> list[tuple[str, str]]:
    files = sorted((ROOT / "automium").rglob("*.py"))
    named = [(f.relative_to(ROOT).as_posix(), f) for f in files]
    return [(m, f.read_text(encoding="utf-8")) for m, f in named if not m.startswith(ADAPTERS)]


def test_no_automium_module_imports_a_network_process_or_browser_library() -> None:
    offenders = [line for module, src in _modules() for line in forbidden_imports(src, module)]
    assert offenders == []


def test_no_automium_module_reads_the_environment() -> None:
    offenders = [line for module, src in _modules() for line in environment_reads(src, module)]
    assert offenders == []


def test_every_allowed_import_is_still_needed() -> None:
    sources = dict(_modules())
    for module, name in ALLOWED_IMPORTS:
        assert module in sources, f"{module} is gone: drop its allow-list entry"
        assert name in set(_imported_names(ast.parse(sources[module]))), (module, name)


@pytest.mark.parametrize(
    "source",
    [
        "import requests",
        "import http.client",
        "from urllib import request",
        "from urllib.request import urlopen",
        "import asyncio.subprocess as sp",
        "from asyncio import subprocess",
        "import playwright.sync_api",
        "def f():\n    import subprocess",
    ],
)
def test_the_static_check_catches_each_spelling_of_an_import(source: str) -> None:
    assert forbidden_imports(source, "automium/example.py") != []


def test_the_static_check_allows_only_the_listed_module() -> None:
    assert forbidden_imports("import socket", "automium/mcp_server/http.py") == []
    assert forbidden_imports("import socket", "automium/mcp_server/tools.py") != []
    assert environment_reads("import os\nos.environ.get('X')", "m") == ["m: reads os.environ"]
    assert environment_reads("from os import getenv", "m") == ["m: reads os.getenv"]
