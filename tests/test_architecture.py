"""The one rule of docs/architecture.md (a module imports only from layers below its own),
checked statically where it has been broken before: only the MCP boundary imports the SDK,
only the contracts facade imports the generated package, and importing the domain's
operations loads no MCP module. Each check names the offending file:line."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "automium"
BOUNDARY = PACKAGE / "mcp_server"
FACADE = PACKAGE / "contracts.py"
SDK_PACKAGES = frozenset({"mcp", "mcp_types", "anyio", "uvicorn", "starlette"})
GENERATED = "automium_contracts"
BUILD = ROOT / "automium_build"
# The composition root may start the boundary; the domain may not reach it.
ENTRYPOINTS = frozenset({PACKAGE / "cli.py"})
# The commands beside the entry point; the demo among them is an MCP client of the server
# (over stdio, in a process of its own), so it speaks MCP through the SDK too.
COMMANDS = PACKAGE / "commands"
SDK_CLIENTS = frozenset({COMMANDS / "demo.py"})
# The adapters that serve the owned apps and drive a browser: only they touch sockets,
# browsers and Playwright, and neither the MCP server nor the domain reaches them.
# Planner trials drive the executor's browser and start planner processes: an adapter too.
ADAPTERS = (PACKAGE / "hosting", PACKAGE / "execution", PACKAGE / "planning")
BROWSER_PACKAGES = frozenset(
    {"playwright", "automium.hosting", "automium.execution", "automium.planning"}
)
_DYNAMIC_IMPORTS = frozenset({"import_module", "__import__"})


def python_files(*folders: Path) -> list[Path]:
    return sorted(p for folder in folders if folder.is_dir() for p in folder.rglob("*.py"))


def module_of(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def imports(source: str, module: str = "") -> Iterator[tuple[int, str]]:
    """Every (line, absolute module name) that ``source`` imports, including relative
    imports resolved against ``module`` and ``importlib.import_module("…")`` calls."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = module.split(".")[: -node.level] if module else []
                base = ".".join([*parent, base] if base else parent)
            yield node.lineno, base
            for alias in node.names:  # "from automium import mcp_server" imports a module
                yield node.lineno, f"{base}.{alias.name}"
        elif (
            isinstance(node, ast.Call)
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and getattr(node.func, "attr", getattr(node.func, "id", None)) in _DYNAMIC_IMPORTS
        ):
            yield node.lineno, node.args[0].value


@cache
def imports_of(path: Path) -> tuple[tuple[int, str], ...]:
    # Each rule scans most of the repository again: parse each file once.
    return tuple(imports(path.read_text("utf-8"), module_of(path)))


def offenders(files: list[Path], forbidden: frozenset[str]) -> list[str]:
    """``file:line imports name`` for every import of a forbidden top-level package."""
    found = []
    for path in files:
        for line, name in imports_of(path):
            if any(name == f or name.startswith(f + ".") for f in forbidden):
                found.append(f"{path.relative_to(ROOT)}:{line} imports {name}")
    return sorted(set(found))


# --- the checker itself ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("import mcp.types", "mcp.types"),
        ("from mcp import types", "mcp"),
        ("import os, anyio as a", "anyio"),
        ("def f():\n    from starlette.routing import Route", "starlette.routing"),
        ("import importlib\nimportlib.import_module('uvicorn')", "uvicorn"),
        ("__import__('mcp_types')", "mcp_types"),
        ("from ..mcp_server import tools", "automium.mcp_server"),
        ("from .. import mcp_server", "automium.mcp_server"),
    ],
)
def test_the_import_scanner_sees_every_way_of_importing(source: str, expected: str) -> None:
    names = [name for _, name in imports(source, "automium.replay.summary")]

    assert any(n == expected or n.startswith(expected + ".") for n in names)


def test_the_scanner_has_files_to_look_at() -> None:
    assert FACADE in python_files(PACKAGE)
    assert python_files(BUILD)
    assert python_files(BOUNDARY)
    assert python_files(ROOT / "tests")


# --- the rules ------------------------------------------------------------------------------


def test_only_the_mcp_boundary_and_the_demo_client_import_the_sdk() -> None:
    outside = [
        p for p in python_files(PACKAGE) if BOUNDARY not in p.parents and p not in SDK_CLIENTS
    ]

    assert offenders(outside, SDK_PACKAGES) == []
    assert all(offenders([client], SDK_PACKAGES) for client in SDK_CLIENTS)


def test_the_demo_client_reaches_the_server_only_through_a_process() -> None:
    # It launches `python -m automium.mcp_server`; importing the server would serve in-process.
    assert offenders(list(SDK_CLIENTS), frozenset({"automium.mcp_server"})) == []


def test_neither_the_server_nor_the_pure_packages_import_the_commands() -> None:
    beneath = [
        p
        for p in python_files(PACKAGE)
        if COMMANDS not in p.parents
        and p not in ENTRYPOINTS
        and p != BOUNDARY / "__main__.py"  # an entry point too: it shares the logging set-up
    ]

    assert offenders(beneath, frozenset({"automium.commands"})) == []


def test_the_domain_never_imports_the_mcp_boundary() -> None:
    domain = [
        p for p in python_files(PACKAGE) if BOUNDARY not in p.parents and p not in ENTRYPOINTS
    ]

    assert offenders(domain, frozenset({"automium.mcp_server"})) == []


def test_the_adapter_packages_exist_for_the_rules_below_to_cover() -> None:
    for adapter in ADAPTERS:
        assert python_files(adapter), adapter


def test_the_mcp_server_never_imports_the_browser_adapters_or_playwright() -> None:
    assert offenders(python_files(BOUNDARY), BROWSER_PACKAGES) == []


def test_the_domain_never_imports_the_browser_adapters_or_playwright() -> None:
    domain = [
        p
        for p in python_files(PACKAGE)
        if BOUNDARY not in p.parents
        and p not in ENTRYPOINTS
        and not any(adapter in p.parents for adapter in ADAPTERS)
    ]

    assert offenders(domain, BROWSER_PACKAGES) == []


def test_only_the_command_line_reaches_the_executor() -> None:
    outside = [
        p
        for p in python_files(PACKAGE)
        if PACKAGE / "execution" not in p.parents
        and PACKAGE / "planning" not in p.parents
        and p not in ENTRYPOINTS
    ]

    assert offenders(outside, frozenset({"automium.execution"})) == []


def test_only_the_adapters_import_playwright() -> None:
    outside = [p for p in python_files(PACKAGE) if not any(a in p.parents for a in ADAPTERS)]

    assert offenders(outside, frozenset({"playwright"})) == []


def test_the_adapters_never_import_the_mcp_boundary() -> None:
    adapters = python_files(*ADAPTERS)

    assert offenders(adapters, frozenset({"automium.mcp_server", *SDK_PACKAGES})) == []


def test_nothing_in_the_package_imports_the_command_that_starts_it() -> None:
    # The entry point sits on top: `python -m automium.mcp_server` starts the server itself.
    beneath = [p for p in python_files(PACKAGE) if p not in ENTRYPOINTS]

    assert offenders(beneath, frozenset({"automium.cli"})) == []


def test_only_the_contracts_facade_imports_the_generated_package() -> None:
    everywhere = python_files(PACKAGE, BUILD, ROOT / "tests", ROOT / "benchmarks", ROOT / "scripts")

    assert offenders([p for p in everywhere if p != FACADE], frozenset({GENERATED})) == []


def test_the_runtime_never_imports_the_build_package() -> None:
    assert offenders(python_files(PACKAGE), frozenset({BUILD.name})) == []


def test_the_build_package_never_imports_the_runtime() -> None:
    # The build rewrites the models the runtime loads: it must run when they are stale.
    assert offenders(python_files(BUILD, ROOT / "scripts"), frozenset({PACKAGE.name})) == []


def test_the_contracts_facade_does_import_the_generated_package() -> None:
    assert offenders([FACADE], frozenset({GENERATED}))


def _modules_loaded(code: str, loaded: str) -> str:
    """What a fresh interpreter prints after running ``code``: the sorted names of the loaded
    modules ``m`` for which the expression ``loaded`` holds."""
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            f"{code}; import sys; print(sorted(m for m in sys.modules if {loaded}))",
        ],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        timeout=60,
    )
    assert (result.returncode, result.stderr) == (0, "")
    return result.stdout


@pytest.mark.subprocess
def test_starting_the_mcp_server_loads_no_browser_module() -> None:
    loaded = _modules_loaded(
        "from automium.mcp_server.server import build_server; build_server()",
        "m.split('.')[0] == 'playwright' "
        "or m.startswith(('automium.hosting', 'automium.execution', 'automium.planning'))",
    )

    assert loaded == "[]\n"


@pytest.mark.subprocess
def test_importing_the_capability_and_prompt_tables_loads_no_mcp_module() -> None:
    loaded = _modules_loaded(
        "import automium.capabilities, automium.guidance",
        "m.split('.')[0] in ('mcp', 'mcp_types')",
    )

    assert loaded == "[]\n"


def test_every_browser_context_of_the_package_is_the_one_loopback_only_context() -> None:
    # One mechanism holds a run to loopback: a context made anywhere else could skip it.
    makers = [
        f"{p.relative_to(ROOT)}"
        for p in python_files(PACKAGE)
        if "new_context(" in p.read_text("utf-8")
    ]

    assert makers == ["automium/execution/contexts.py"]


# --- no circle ------------------------------------------------------------------------------


def room_of(module: str) -> str | None:
    """The room of ``automium`` a module belongs to: its package or top-level module."""
    parts = module.split(".")
    return parts[1] if parts[0] == PACKAGE.name and len(parts) > 1 else None


def room_graph(files: list[Path]) -> dict[str, set[str]]:
    """Which rooms each room imports, at the top of a module or inside a function alike."""
    rooms = {p.name.removesuffix(".py") for p in PACKAGE.iterdir() if not p.name.startswith("_")}
    graph: dict[str, set[str]] = {}
    for path in files:
        source = room_of(module_of(path))
        if source is None:
            continue
        for _, name in imports_of(path):
            target = room_of(name)
            if target in rooms and target != source:
                graph.setdefault(source, set()).add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each circle of ``graph``, once, as the rooms along it from its smallest."""
    found: set[tuple[str, ...]] = set()

    def walk(path: list[str]) -> None:
        for nxt in sorted(graph.get(path[-1], ())):
            if nxt == path[0]:
                found.add(tuple(path))
            elif nxt not in path and nxt > path[0]:
                walk([*path, nxt])

    for start in sorted(graph):
        walk([start])
    return [list(c) for c in sorted(found)]


def test_the_cycle_finder_finds_a_circle_and_only_circles() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": {"c"}}) == []


def test_the_room_graph_sees_a_lazy_import() -> None:
    assert "export" in room_graph([PACKAGE / "compilation.py"])["compilation"]


def test_no_room_of_the_package_imports_in_a_circle_lazy_imports_included() -> None:
    graph = room_graph(python_files(PACKAGE))

    assert graph["compilation"] >= {"journeys", "export"}
    assert cycles(graph) == []


def test_the_modeled_runs_never_reach_sideways_into_the_benchmark() -> None:
    runs = python_files(PACKAGE / "runs")

    assert runs
    assert offenders(runs, frozenset({"automium.benchmark"})) == []


# --- export -------------------------------------------------------------------------------

EXPORT = PACKAGE / "export"
_BROWSER_PACKAGES = frozenset(
    {"playwright", "automium.hosting", "automium.execution", "automium.mcp_server"}
)


def test_the_exporter_imports_no_browser_no_hosting_and_no_server() -> None:
    assert python_files(EXPORT)
    assert offenders(python_files(EXPORT), _BROWSER_PACKAGES) == []


def test_the_exporter_writes_no_file_its_command_does() -> None:
    # The one place an export writes a file is the commands layer's `automium export`.
    calls = ("write_text(", "write_bytes(", "open(", "mkdir(")
    writes = [p for p in python_files(EXPORT) if any(c in p.read_text("utf-8") for c in calls)]

    assert writes == []
    assert "write_text" in (COMMANDS / "export.py").read_text("utf-8")


# --- the map of docs/architecture.md --------------------------------------------------------

ARCHITECTURE = ROOT / "docs" / "architecture.md"
# Sections about packages still to come name paths that do not exist yet.
_TO_COME = ("## Real apps and hosting", "## Execution", "## Export")


def named_paths(text: str) -> list[str]:
    """The repository paths ``text`` names in backticks (``automium/…``, ``tests/…``, a file
    name with an extension), placeholders such as ``<app>`` aside."""
    found = re.findall(r"`([A-Za-z_][\w./-]*(?:/|\.(?:py|md|json|aria|toml)))`", text)
    return [path for path in found if "/" in path or path.count(".") == 1]


def test_every_path_the_architecture_names_exists() -> None:
    sections = re.split(r"(?m)^(?=## )", ARCHITECTURE.read_text("utf-8"))
    current = [s for s in sections if not s.startswith(_TO_COME)]
    names = {p.name for folder in (PACKAGE, ROOT / "tests") for p in folder.rglob("*")}
    missing = [
        path
        for path in named_paths("".join(current))
        if not (ROOT / path).exists()
        and not (PACKAGE / path).exists()  # `mcp_server/tools.py`, inside the package
        and not ("/" not in path and path in names)  # `tools.py`, named in its context
    ]

    assert named_paths("".join(current)), "the scanner found no path"
    assert missing == []
