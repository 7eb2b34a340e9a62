"""``benchmarks/RESULTS.md`` from one run's :class:`Results`: tables, ratios, verdicts.

Every number in the report comes from the run; the prose only says what a column means.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from statistics import linear_regression, median, quantiles

from benchmarks.measure import (
    READING_PAUSE_S,
    AnswerSize,
    CallLatency,
    ColdStart,
    Point,
    Settings,
    size,
)

# The budgets: ratios to the bare server over stdio. Relaxed from 1.05x and 1.3x when the
# start-up tricks that bought sub-millisecond gains went (README, "Performance").
COLD_START_BUDGET = 1.10  # spawn → tools/list response, median
CALL_BUDGET = 2.0  # tools/call, median ÷ the bare echo's median, unless named here:
CALL_BUDGETS = {"automium_compare_planners": 2.5}
# Bytes of the minified `tools` array: room for the fields of the journeys that run for real.
TOOLS_LIST_BUDGET = 44_000
VISIBLE_TOKENS_BUDGET = 7_000  # o200k tokens of every tool's name, description, inputSchema
LINEAR_BUDGET = 1.2  # per-unit cost at the largest point ÷ at the next largest
HOSTILE_BUDGET_S = 0.2  # refusing a 1,000-step journey with 60 unexpected properties a step
# What an agent reads of an answer, in bytes (1 KB = 1,000 B): tests/test_answer_budget.py
# holds the same answers to the same budgets; a name not here has none.
ANSWER_BUDGETS = {
    "compare_planners, 2 planners": 3_000,
    "compare_planners, 8 planners": 6_000,
    "compile_journey, valid": 2_000,
    "debug_failed_run, with events": 4_000,
    "draft_journey, median fixture": 6_000,
    "draft_journey, largest fixture": 8_000,
}


@dataclass(frozen=True, slots=True)
class Results:
    """What one run measured, and where and how it ran."""

    started: datetime.datetime
    command: str
    machine: str
    settings: Settings
    wall_s: float
    cold: ColdStart
    calls: CallLatency
    compare: list[Point]
    compile: list[Point]
    hostile_refusal_s: float
    tokens: dict[str, int]  # per Automium tool: what a model reads of it
    tokens_counted_by: str
    answers: dict[str, AnswerSize]  # benchmarks/answers.py, by name
    answers_counted_by: str


def _table(header: str, rows: list[str]) -> str:
    """A Markdown table from its header and rows, each of cells joined by ``" | "``."""
    rule = "|" + "---|" * len(header.split(" | "))
    return "\n".join([f"| {header} |", rule, *(f"| {row} |" for row in rows)])


def _section(title: str, *blocks: str) -> str:
    return "\n\n".join([f"## {title}", *blocks])


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:.1f}" if seconds >= 0.01 else f"{seconds * 1e3:.3f}"


def _p(values: list[float], q: int) -> float:
    """The ``q``-th percentile, interpolated between samples."""
    return quantiles(values, n=100, method="inclusive")[q - 1]


def _meets(ok: bool, budget: str = "") -> str:
    """A verdict cell; it names the budget where the row does not."""
    return ("meets" if ok else "**misses**") + (f" ≤ {budget}" if budget else "")


def _verdict(ratio: float, budget: float) -> str:
    return _meets(ratio <= budget, f"{budget:.2f}x")


def growth(measured: list[Point]) -> float:
    """Per-unit cost at the largest point ÷ at the next largest: ~1.0 is linear. The small
    points are left out on purpose: their fixed cost per call is overhead, not growth."""
    return measured[-1].per_unit_us / measured[-2].per_unit_us


def _linear(points: list[Point]) -> str:
    return "linear" if growth(points) <= LINEAR_BUDGET else "**superlinear**"


def _short(tool: str) -> str:
    return tool.removeprefix("automium_")


def _ratio(by_server: dict[str, list[float]]) -> float:
    return median(by_server["automium"]) / median(by_server["bare"])


def _budget(tool: str) -> float:
    return CALL_BUDGETS.get(tool, CALL_BUDGET)


def _call_ratios(calls: CallLatency) -> dict[str, float]:
    return {name: median(s) / median(calls.echo[name]) for name, s in calls.tool.items()}


def _summary(r: Results) -> str:
    cold, ratios, tools = _ratio(r.cold.to_tools_list), _call_ratios(r.calls), r.cold.tools
    misses = [_short(name) for name, ratio in ratios.items() if ratio > _budget(name)]
    worst = max(ratios, key=lambda name: ratios[name] / _budget(name))
    named = ", ".join(f"{_short(name)} ≤ {b}x" for name, b in CALL_BUDGETS.items())
    listed, count = size(tools["automium"]), len(tools["automium"])
    over = {n: (r.calls.first[n].seconds - median(s)) * 1e3 for n, s in r.calls.tool.items()}
    first, tokens = max(over, key=over.__getitem__), sum(r.tokens.values())
    rows = [
        f"cold start (spawn → tools/list), median | ≤ {COLD_START_BUDGET}x bare | {cold:.2f}x | "
        + _verdict(cold, COLD_START_BUDGET),
        f"tools/call latency over stdio, median | ≤ {CALL_BUDGET}x bare echo ({named}) | "
        f"{len(ratios) - len(misses)}/{len(ratios)} within; worst against its budget: "
        f"{_short(worst)} {ratios[worst]:.2f}x | "
        + ("**misses** for " + ", ".join(misses) if misses else "meets"),
        *(
            f"{tool} growth in {unit}s | linear | {growth(points):.2f}x µs/{unit}, "
            f"{points[-2].units} → {points[-1].units} | {_linear(points)}"
            for tool, unit, points in [
                ("compare_planners", "trial", r.compare),
                ("compile_journey", "step", r.compile),
            ]
        ),
        f"tools/list payload, minified | ≤ {TOOLS_LIST_BUDGET:,} B | {listed:,} B, "
        f"{listed / count:,.0f} B/tool | "
        + _meets(listed <= TOOLS_LIST_BUDGET, f"{TOOLS_LIST_BUDGET:,} B"),
        # No budget since the warm-up thread went: a session's first call of a tool loads
        # its domain, once, a cost no agent notices beside its model's turn.
        f"first call over the warm median, after tools/list is read | none | "
        f"worst {_short(first)} {over[first]:.1f} ms | reported",
        f"a hostile 1,000-step journey (60 unexpected properties a step) refused | "
        f"≤ {HOSTILE_BUDGET_S:g} s | {r.hostile_refusal_s:.3f} s | "
        + _meets(r.hostile_refusal_s <= HOSTILE_BUDGET_S),
        f"what the model reads of tools/list (names, descriptions, inputSchemas) | "
        f"≤ {VISIBLE_TOKENS_BUDGET:,} tokens | {tokens:,} {r.tokens_counted_by} | "
        + _meets(tokens <= VISIBLE_TOKENS_BUDGET),
        _answers_row(r),
    ]
    return _section("Summary", _table("what | budget | measured | verdict", rows))


def _cold(r: Results) -> str:
    c, cold = r.cold, _ratio(r.cold.to_tools_list)
    rows = [
        f"{name} | {len(s)} | {_ms(median(c.to_initialize[name]))} | **{_ms(median(s))}** | "
        f"{_ms(min(s))} | {_ms(_p(s, 90))} | {_ms(max(s))}"
        for name, s in sorted(c.to_tools_list.items())
    ]
    return _section(
        "Cold start (spawn → initialize → tools/list response), ms",
        _table("server | runs | median → initialize | median → tools/list | min | p90 | max", rows),
        f"Ratio of medians, Automium ÷ bare: **{cold:.2f}x** to tools/list "
        f"({_ratio(c.to_initialize):.2f}x to the initialize response) — "
        f"{_verdict(cold, COLD_START_BUDGET)}. `python -c pass` takes "
        f"{_ms(median(c.interpreter))} ms on this machine.",
    )


# Each tool's response line on the demo input, as RESULTS.md recorded it at 00d71fb.
BYTES_AT_FILING = {
    "automium_list_apps": 8283,
    "automium_list_fixtures": 2559,
    "automium_compile_journey": 6656,
    "automium_create_run_submission": 1675,
    "automium_get_replay_summary": 1660,
    "automium_get_artifact_manifest": 946,
    "automium_compare_planners": 7403,
}


def _calls(r: Results) -> str:
    c, ratios = r.calls, _call_ratios(r.calls)
    rows = []
    for name, s in c.tool.items():
        echo, first, warm = c.echo[name], c.first[name], median(s)
        rows.append(
            f"`{name}` | {len(s)} | **{_ms(warm)}** | {_ms(_p(s, 99))} | {_ms(median(echo))} | "
            f"{_ms(_p(echo, 99))} | **{ratios[name]:.2f}x** | {_p(s, 99) / _p(echo, 99):.2f}x | "
            f"{(warm - median(echo)) * 1e3:.3f} | {_ms(first.seconds)} | "
            f"{(first.seconds - warm) * 1e3:.1f} | {(c.first_at_once[name] - warm) * 1e3:.1f} | "
            f"{BYTES_AT_FILING[name]:,} | {len(first.raw):,} | "
            f"{_verdict(ratios[name], _budget(name))}"
        )
    return _section(
        "Per-call latency over stdio, ms",
        "Each tool with its typical input (the `automium demo` path) against the bare `echo` "
        "with the same arguments. *extra* = median - echo median; *first* = the tool's first "
        "call in the session, *first - median* its cost over a warm call, the session having "
        f"paused {READING_PAUSE_S:g} s after tools/list (as an agent reads it); *at once* = the "
        "same for a tool called first in a new session right after tools/list. Either loads "
        "the tool's domain on that first call. *response B, "
        "at filing*: the bytes RESULTS.md recorded when the context-and-speed issue was filed "
        "(00d71fb, 2026-11-30), before lean answers and before the page checks, timelines "
        "and statistics made the outputs larger.",
        _table(
            "tool | calls | median | p99 | echo median | echo p99 | ratio (median) | ratio (p99) "
            "| extra ms | first | first - median | at once - median | response B, at filing "
            "| response B | verdict",
            rows,
        ),
    )


def _rss(r: Results) -> str:
    cold = {name: median(kib) / 1024 for name, kib in sorted(r.cold.rss_kib.items())}
    calls = {name: kib / 1024 for name, kib in r.calls.rss_kib.items()}
    return _section(
        "Peak RSS (VmHWM from /proc/<pid>/status, read before closing)",
        _table(
            "server | after tools/list (median of cold starts) | after the calls",
            [f"{name} | {mib:.1f} MiB | {calls[name]:.1f} MiB" for name, mib in cold.items()],
        ),
        f"Automium ÷ bare: {cold['automium'] / cold['bare']:.2f}x after start-up, "
        f"{calls['automium'] / calls['bare']:.2f}x after the calls.",
    )


def _payload(r: Results) -> str:
    servers = [
        f"{name} | {len(tools)} | **{size(tools):,}** | {size(tools) / len(tools):,.0f} | "
        f"`{max(tools, key=size)['name']}` {max(map(size, tools)):,}"
        for name, tools in sorted(r.cold.tools.items())
    ]
    tools, how = sorted(r.cold.tools["automium"], key=size, reverse=True), r.tokens_counted_by
    total, inputs = size(tools), sum(size(t["inputSchema"]) for t in tools)
    outputs = sum(size(t["outputSchema"]) for t in tools)  # Automium publishes every one
    rows = [
        f"`{t['name']}` | {size(t):,} | {size(t['inputSchema']):,} | {size(t['outputSchema']):,} "
        f"| {len(t['description'].encode()):,} | {r.tokens[t['name']]:,}"
        for t in tools
    ]
    return _section(
        "tools/list payload (minified JSON of the result's `tools` array, bytes)",
        _table("server | tools | total | per tool | largest", servers),
        _table(
            f"tool | bytes | inputSchema | outputSchema | description | model reads ({how})", rows
        ),
        f"Input schemas are {inputs:,} B ({inputs / total:.0%}), output schemas {outputs:,} B "
        f"({outputs / total:.0%}). What a model reads (each tool's name, description and "
        f"inputSchema) is {sum(r.tokens.values()):,} {how}; clients that show it the output "
        "schemas too add those.",
    )


# The same answers at 564e7ca, before answers were shaped (bytes, o200k tokens): a full
# answer was then the only answer, so a full row's "before" is the default's.
ANSWERS_BEFORE = {
    "compare_planners, 2 planners": (9_255, 2_657),
    "compare_planners, 8 planners": (22_253, 7_154),
    "compare_planners, 2 planners, full": (9_255, 2_657),
    "compare_planners, 8 planners, full": (22_253, 7_154),
    "compile_journey, valid": (3_189, 850),
    "compile_journey, valid, full": (3_189, 850),
    "create_run_submission": (1_009, 290),
    "create_run_submission, with events": (9_685, 2_816),
    "debug_failed_run": (2_756, 676),
    "debug_failed_run, with events": (13_565, 4_371),
    "draft_journey, median fixture": (8_525, 2_297),  # shop-lite.guest-empty-cart
    "draft_journey, largest fixture": (10_640, 2_780),  # admin-console.admin-user
}


def _answers_within(r: Results) -> list[str]:
    return [n for n, b in ANSWER_BUDGETS.items() if n in r.answers and r.answers[n].bytes <= b]


def _answers_row(r: Results) -> str:
    within, measured = _answers_within(r), [n for n in ANSWER_BUDGETS if n in r.answers]
    worst = max(measured, key=lambda n: r.answers[n].bytes / ANSWER_BUDGETS[n])
    return (
        "answers an agent reads (default detail; the budgets per answer below) | "
        f"≤ 2 to 8 KB each | {len(within)}/{len(measured)} within; closest to its budget: "
        f"{worst} {r.answers[worst].bytes:,} B of {ANSWER_BUDGETS[worst]:,} | "
        + _meets(len(within) == len(measured))
    )


def _answers(r: Results) -> str:
    return answers_section(r.answers, r.answers_counted_by)


ANSWERS_TITLE = "Answers an agent reads (bytes and tokens of each answer)"


def answers_section(measured: dict[str, AnswerSize], counted_by: str) -> str:
    """The answers' section: deterministic, so ``--answers`` refreshes it alone."""
    rows = []
    for name, now in measured.items():
        before = ANSWERS_BEFORE.get(name)
        budget = ANSWER_BUDGETS.get(name)
        rows.append(
            f"{name}{f' ({now.subject})' if now.subject else ''} | "
            + (f"{before[0]:,} | {before[1]:,}" if before else "- | -")
            + f" | **{now.bytes:,}** | {now.tokens:,} | "
            + (f"{budget:,} B | {_meets(now.bytes <= budget)}" if budget else "- | -")
        )
    return _section(
        ANSWERS_TITLE,
        "In process, deterministic (`benchmarks/answers.py`; `python -m benchmarks.run "
        "--answers` refreshes this section alone): the minified `structuredContent` of a tool "
        "answer, or the text of a prompt, on the inputs the context budgets name: "
        "compare_planners over shop-lite and helpdesk with 3 repetitions, the compile and a "
        "modeled run of `shop-lite.buy-one-mug`, `draft_journey` for all ten fixtures with "
        'the goal "Do the main task" (the upper-median and the largest shown), '
        "`debug_failed_run` with and without the events of the run's failing variant. *full*: "
        'with `detail: "full"`. *before*: the same answers at 564e7ca, before the default '
        "answers were shaped (then the full document was the only answer). Tokens: "
        f"{counted_by}.",
        _table("answer | before B | before tokens | B | tokens | budget | verdict", rows),
    )


def with_answers(report: str, section: str) -> str:
    """``report`` (a RESULTS.md) with its answers' section replaced by ``section``, or
    inserted after the summary when it has none."""
    title = f"## {ANSWERS_TITLE}"
    if title in report:
        start = report.index(title)
        end = report.find("\n## ", start + len(title))
        return report[:start] + section + ("\n" + report[end:] if end >= 0 else "\n")
    at = report.find("\n## ", report.index("## Summary") + len("## Summary"))
    return report[: at + 1] + section + "\n\n" + report[at + 1 :]


def _growth(title: str, unit: str, points: list[Point]) -> str:
    marginal, fixed = linear_regression([p.units for p in points], [p.seconds for p in points])
    rows = [
        f"{p.label} | {p.units:,} | {p.repeats} | {_ms(p.seconds)} | {p.per_unit_us:,.1f}"
        for p in points
    ]
    return _section(
        title,
        _table(f"point | {unit}s | repeats | median ms | µs per {unit}", rows),
        f"Growth: µs per {unit} at {points[-1].units:,} ÷ at {points[-2].units:,} = "
        f"**{growth(points):.2f}x** → {_linear(points)}. Least-squares fit: {fixed * 1e3:.2f} ms "
        f"fixed + {marginal * 1e6:,.1f} µs per {unit}.",
    )


def render(r: Results) -> str:
    s = r.settings
    header = f"""# Automium performance, measured side by side

Generated by the harness at {r.started:%Y-%m-%d %H:%M %Z}; do not edit by hand (re-run it).
Command: `{r.command}`, from the repository root; {r.wall_s:.0f} s in all.
How each figure is measured: `benchmarks/README.md`.
Baseline: `benchmarks/bare_server.py`, one `echo` tool on the same SDK.

Machine: {r.machine}.

Counts: {s.cold_runs} cold starts per server, interleaved;
{s.rounds * s.batch} calls per tool in {s.rounds} batches of {s.batch},
each paired with a batch of `echo` calls carrying the same arguments;
{s.warmup} warm-up calls per tool and server first."""
    compare = "compare_planners in process (contract check + trials + report + wire document)"
    compile_ = "compile_journey in process (generated shop-lite journeys, mixed intents)"
    sections = [header, _summary(r), _answers(r), _cold(r), _calls(r), _rss(r), _payload(r)]
    sections += [_growth(compare, "trial", r.compare), _growth(compile_, "step", r.compile)]
    return "\n\n".join(sections) + "\n"
