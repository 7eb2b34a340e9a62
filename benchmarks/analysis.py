"""The "Where the time goes" section: measured tables plus the analysis, numbers filled in.

The prose is a template written from the profiles (see ``benchmarks/README.md``); every
number in it comes from the run that renders it. The savings marked "prototype" are
ratios measured once with a scratch patch of ``automium/validation.py`` (not shipped) and
are applied here to this run's numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from benchmarks.measure import median, ratio

if TYPE_CHECKING:
    from benchmarks.run import Results

# Packages that only the contract check needs (jsonschema and what it brings).
JSONSCHEMA_PACKAGES = ("jsonschema", "jsonschema_specifications", "referencing", "rpds", "attr")
# The scratch prototype of a discriminator-aware ``oneOf`` (see the analysis) cut the
# journey contract check by this fraction on 100-1000 step journeys, ~half on 6 steps.
DISCRIMINATOR_SAVING = 0.8
DISCRIMINATOR_SAVING_SMALL = 0.5
# Scratch prototype: validating against the contract with local $refs inlined took ~40%
# less time; serialising a cached list_apps result took ~1/3 of building it anew.
INLINE_SAVING = 0.4
CACHE_SAVING = 0.65


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
    lazy_saving = min(automium_import, contracts_ms + jsonschema_ms)
    compile_stage = r.stages.get("automium_compile_journey", {})
    compile_check = compile_stage.get("contract check", 0.0)
    compile_total = compile_stage.get("tools.call", 0.0) + compile_stage.get(
        "MCP result + wire JSON", 0.0
    )
    echo_compile = median(r.calls.echo["automium_compile_journey"]) * 1e3
    tool_compile = median(r.calls.tool["automium_compile_journey"]) * 1e3
    after_compile = tool_compile - compile_check * DISCRIMINATOR_SAVING_SMALL / 1e3
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
    return f"""### Findings and recommended changes, in priority order

Cold start to the first tools/list costs {auto_cold:.0f} ms against the bare server's
{bare_cold:.0f} ms ({ratio(auto_cold, bare_cold):.2f}x). Both pay the SDK import (the phases
table: importing `mcp` loads its client, HTTP stack and three generations of protocol
types; there is no lighter import path). What Automium adds is almost all *import*:
{automium_import:.0f} ms to import its own modules, of which the generated pydantic
contract models (`automium_contracts`, imported through `automium.contracts` by
`automium.errors`, `tools`, `prompts`, `resources`) take {contracts_ms:.0f} ms of self time
and jsonschema with its dependencies another {jsonschema_ms:.0f} ms. Building the server and
the first tools/list cost a few ms. Per call, the stdio extra over echo is the in-process
server work plus the SDK's handling of bigger requests and results (summed over the seven
tools the extra is {extra_sum:.0f} µs against {work_sum:.0f} µs of server work), and the
**jsonschema contract check dominates** every tool that takes input:
{share_check_compile:.0%} of `compile_journey`'s server work, because each step of a
journey is checked against all 13 `oneOf` step branches (each a `$ref` resolved through
`referencing`), and each target against 2.

1. **`automium/validation.py`: discriminator-aware `oneOf`** (extend `_ContractValidator`
   with a `oneOf` that, when the schema has `discriminator.propertyName` and the instance's
   tag matches one branch's `const`, descends into that branch only and wraps its errors in
   one `oneOf` `ValidationError(context=…)` exactly like jsonschema does, so `_Explainer` is
   unchanged; fall back to jsonschema's `oneOf` otherwise). Prototype: identical problem lists
   on 10 invalid journeys; the journey contract check ~{DISCRIMINATOR_SAVING_SMALL:.0%} faster on
   the 6-step journey and ~{DISCRIMINATOR_SAVING:.0%} on 100-1,000 steps. Expected: typical
   `compile_journey` call {tool_compile:.2f} → ~{after_compile:.2f} ms over stdio (echo
   {echo_compile:.2f} ms); {per_step:.0f} → ~{per_step * (1 - DISCRIMINATOR_SAVING):.0f} µs
   per step at 1,000 steps; it also speeds up the corpus check of the first call (item 3).
2. **Lazy imports until the first tools/call** (`automium/mcp_server/server.py`,
   `tools.py`, `prompts.py`, `resources.py`, `automium/errors.py`): tools/list needs only the
   tool table and the bundled schema *files*. Keep `automium/contracts.py` the only importer
   of the generated package (tests/test_architecture.py) but make it lazy: `bundled_schema*`
   need only `json` + `importlib.resources`, and a module `__getattr__` (PEP 562) can import
   each generated model module on first access (`ErrorCode` alone is cheap). Then have the
   tool table name operations by key and import `automium.api` (models, jsonschema, corpus)
   inside `tools.call` / `prompts.get` / `resources.read` on first use. Prototype: a server
   importing only the SDK and serving the same tools/list from the bundled JSON started at
   ~1.0x bare (12 interleaved runs). Expected cold-start saving
   ≈ {lazy_saving:.0f} ms → ~{ratio(auto_cold - lazy_saving, bare_cold):.2f}x (the cost moves
   to the first call, which item 3 shrinks).
3. **Don't re-validate the owned corpus on every start** (`automium/corpus/loader.py`): the
   first tools/call costs {first_call:.0f} ms, nearly all of it jsonschema checking the
   checked-in 31 KB corpus against `corpus.v1` (its reference journeys go through the same
   13-way `oneOf`). Check the corpus at build time (`scripts/regen.py --check` and a test
   already run on every change) and load it with `Corpus.model_validate_json` at run time.
   Expected: ~{first_call * 0.8:.0f} ms off the first call (item 1 alone gives about half).
4. **A fast path for valid input** (`automium/validation.py`): even flat inputs pay
   ~{submission.get("contract check", 0.0):.0f} µs of contract check (`create_run_submission`),
   most of it `referencing` pointer lookups and `Validator.evolve` per `$ref`. Validate first
   against a copy of the contract with its local `$ref`s inlined (`{{"allOf": [target],
   …siblings}}`, exact in 2020-12; same `_ContractValidator`, so ECMA patterns stay) and run
   today's validator only when that fails, to explain the problems (the explainer reads `$defs`
   names off the schema path, which inlining loses). Prototype: ~{INLINE_SAVING:.0%} less
   check time on `run-submission-input.v1`. Expected: ~{sub_check * INLINE_SAVING:.0f} µs per
   `create_run_submission` call, ~{man_check * INLINE_SAVING:.0f} µs per
   `get_artifact_manifest`, ~{cmp_check * INLINE_SAVING:.0f} µs per
   `compare_planners` (whose check is {compare.get("contract check", 0.0):.0f} µs of
   {compare.get("tools.call", 0.0):.0f} µs); combine with item 1 for journeys.
5. **Cache the results of the static tools** (`automium/mcp_server/tools.py`): `list_apps`
   spends {list_apps_work:.0f} µs per call building and serialising a result whose document
   never changes (`list_fixtures` likewise, per app). Keep the `CallToolResult` per arguments
   in a small `lru_cache`. Prototype: serialising the cached `list_apps` result costs about a
   third of building it. Expected: ~{list_apps_work * CACHE_SAVING:.0f} µs per `list_apps`
   call, ~{fixtures_work * CACHE_SAVING:.0f} µs per `list_fixtures`: the change most likely to
   bring the two corpus tools under 1.3x.
6. **tools/list is re-serialised per request** ({next_list:.2f} ms per list with the result
   cached, i.e. pydantic dumping the schemas again). Once per session, so low priority; only
   worth it if a client lists on every call (the 2026 era over HTTP does, unless
   `get_tool_input_schema` is passed, which `build_server` already does)."""


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
