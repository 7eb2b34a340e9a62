"""One self-contained HTML page of a run set, as Playwright's HTML reporter gives one.

It needs no network and no server: styles are inline, screenshots are embedded, and the
page links to each run's files by relative paths. It shows the comparison of the trials'
planners (the leaderboard of ``automium_compare_planners`` and a Pareto plot of pass rate
against median time) and every trial: its verdict, failure class, steps with what each did,
its screenshots, and its trace, to open with ``npx playwright show-trace``.
"""

from __future__ import annotations

import base64
import json
import os
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any

from automium.contracts import EventType

Json = dict[str, Any]
_STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:70rem;color:#1d1d1f}
h1{font-size:1.5rem} h2{font-size:1.15rem;margin-top:2rem} table{border-collapse:collapse}
td,th{padding:.25rem .6rem;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}
details{border:1px solid #ddd;border-radius:6px;margin:.4rem 0;padding:.4rem .8rem}
summary{cursor:pointer} .passed{color:#17692b} .failed,.errored,.blocked{color:#b3261e}
.flaky{color:#8a5a00} figure{display:inline-block;margin:.4rem} figcaption{font-size:12px}
img{max-width:20rem;border:1px solid #ccc} code{font-size:12px}
"""


def write_report(index: Json, folder: Path, path: Path) -> None:
    """Write the page of ``index`` (folders from ``folder``) at ``path``, with the comparison
    ``automium_compare_planners`` makes of its trials."""
    from automium.capabilities import find  # noqa: PLC0415
    from automium.errors import AutomiumError  # noqa: PLC0415
    from automium.execution.sharding import trials_of  # noqa: PLC0415

    comparison = None
    if index["runs"]:
        try:
            request = trials_of(index) | {"detail": "full"}
            comparison = find("automium_compare_planners").answer(request)[1]
        except AutomiumError:  # trials compare refuses (journeys it cannot compare): none
            comparison = None
    path.write_text(render(index, folder, path.parent, comparison), "utf-8")


def render(index: Json, folder: Path, report_folder: Path, comparison: Json | None) -> str:
    """The page of the ``run-index.v1`` ``index``, whose folders are paths from ``folder``,
    for a file in ``report_folder``; ``comparison`` is the trials' benchmark report."""
    runs = index["runs"]
    verdicts = [_shown(run) for run in runs]
    counts = ", ".join(f"{verdicts.count(v)} {v}" for v in dict.fromkeys(verdicts))
    parts = [
        "<!doctype html><html lang=en><head><meta charset=utf-8>",
        "<title>Automium run report</title>",
        f"<style>{_STYLE}</style></head><body>",
        "<h1>Automium run report</h1>",
        f"<p id=totals>{len(runs)} trials: {escape(counts)}. Corpus "
        f"{escape(index['corpusVersion'])}, shards {escape(', '.join(index['shards']))}.</p>",
    ]
    if comparison is not None:
        parts += _comparison(comparison)
    parts.append("<h2>Trials</h2>")
    parts += [_trial(run, folder / run["folder"], report_folder) for run in runs]
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _shown(run: Json) -> str:
    return "flaky" if run.get("flaky") else str(run["verdict"])


def _comparison(report: Json) -> list[str]:
    rows = []
    for entry in report["planners"]:
        m, planner = entry["metrics"], entry["planner"]
        interval = m["passRateInterval"]
        rows.append(
            f"<tr><td>{escape(planner['id'])}</td><td>{m['trials']}</td>"
            f"<td>{m['passRate']:.1%}</td><td>{interval['low']:.1%} to {interval['high']:.1%}</td>"
            f"<td>{m['passHatK'][-1]['value']:.2f} (k={m['passHatK'][-1]['k']})</td>"
            f"<td>{_number(m['tokensPerSuccess'])}</td><td>{_number(m['latencyMs']['p50'])}</td>"
            f"<td>{'yes' if entry['paretoOptimal'] else 'no'}</td></tr>"
        )
    return [
        "<h2>Planners</h2>",
        f"<p id=verdict>{escape(report['verdict']['summary'])}</p>",
        "<table id=leaderboard><tr><th>planner</th><th>trials</th><th>pass rate</th>"
        "<th>95% Wilson</th><th>pass^k</th><th>tokens per success</th><th>median ms</th>"
        "<th>Pareto</th></tr>",
        *rows,
        "</table>",
        _pareto_plot(report["planners"]),
    ]


def _number(value: float | None) -> str:
    return "-" if value is None else f"{value:,.0f}"


def _pareto_plot(planners: Sequence[Json]) -> str:
    """Pass rate (up) against median time (right), a dot per planner, Pareto ones filled."""
    width, height, pad = 480, 240, 40
    room = 120  # right of the farthest dot, for its name
    times = [p["metrics"]["latencyMs"]["p50"] or 0.0 for p in planners]
    most = max(times) or 1.0
    dots = []
    for planner, time_ms in zip(planners, times, strict=True):
        x = pad + (width - pad - room) * time_ms / most
        y = height - pad - (height - 2 * pad) * planner["metrics"]["passRate"]
        fill = "#1d1d1f" if planner["paretoOptimal"] else "none"
        name = escape(planner["planner"]["id"])
        dots.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="5" fill="{fill}" stroke="#1d1d1f">'
            f"<title>{name}</title></circle>"
            f'<text x="{x + 8:.1f}" y="{y + 4:.1f}" font-size="11">{name}</text>'
        )
    return (
        f'<svg id=pareto width="{width}" height="{height}" role="img" '
        'aria-label="Pareto plot: pass rate against median time">'
        f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" '
        'stroke="#999"/>'
        f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{height - pad}" stroke="#999"/>'
        f'<text x="{width / 2}" y="{height - 8}" font-size="11" text-anchor="middle">'
        f"median time (0 to {most:,.0f} ms)</text>"
        f'<text x="10" y="{pad - 10}" font-size="11">pass rate (0 to 100%)</text>'
        + "".join(dots)
        + "</svg>"
    )


def _trial(run: Json, run_folder: Path, report_folder: Path) -> str:
    trial, shown = run["trial"], _shown(run)
    title = f"{trial['journeyId']} [{trial['plannerId']}] #{trial['repetition']}"
    failure = f", {run['failureClass']}" if "failureClass" in run else ""
    manifest = _json(run_folder / "manifest.json") or {}
    entries = manifest.get("entries", [])
    shots = [e for e in entries if e["kind"] == "screenshot"]
    traces = [e["path"] for e in entries if e["kind"] == "trace"]
    link = Path(os.path.relpath(run_folder, report_folder)).as_posix()
    return "\n".join(
        [
            f'<details class="trial" data-verdict="{shown}"><summary><b>{escape(title)}</b>: '
            f'<span class="{shown}">{shown}</span>{escape(failure)} '
            f"({trial['latencyMs'] / 1000:.1f} s)</summary>",
            _steps(run_folder / "replay.jsonl"),
            "".join(_figure(run_folder, shot) for shot in shots),
            *(
                f'<p>Trace: <a class=trace href="{escape(link)}/{escape(path)}">{escape(path)}'
                f"</a>, <code>npx playwright show-trace {escape(link)}/{escape(path)}</code></p>"
                for path in traces
            ),
            f"<p>Run directory: <code>{escape(run['folder'])}</code></p></details>",
        ]
    )


def _steps(replay: Path) -> str:
    """A row per step: what the planner decided and what came of it."""
    rows: dict[str, list[str]] = {}
    try:
        lines = replay.read_text("utf-8").splitlines()
    except OSError:
        return "<p>No replay log was kept.</p>"
    for line in lines:
        event = json.loads(line)
        step, payload = event.get("stepId"), event.get("payload", {})
        if step is None:
            continue
        row = rows.setdefault(step, ["", ""])
        if event["type"] == EventType.DECISION_MADE:
            target = payload.get("targetName") or payload.get("route") or payload.get("key", "")
            row[0] = f"{payload.get('intent', '')} {target}".strip()
        elif event["type"].startswith(("action.", "assertion.")):
            said = payload.get("error") or payload.get("result") or payload.get("assertionId", "")
            row[1] += f"{event['type']}: {said}; "
    body = "".join(
        f"<tr><td>{escape(step)}</td><td>{escape(did)}</td><td>{escape(came)}</td></tr>"
        for step, (did, came) in rows.items()
    )
    return (
        f"<table class=steps><tr><th>step</th><th>decision</th><th>outcome</th></tr>{body}</table>"
    )


def _figure(run_folder: Path, shot: Json) -> str:
    try:
        data = base64.b64encode((run_folder / shot["path"]).read_bytes()).decode()
    except OSError:
        return ""
    caption = escape(shot.get("stepId", ""))
    return (
        f'<figure><img alt="after step {caption}" src="data:image/png;base64,{data}">'
        f"<figcaption>{caption}</figcaption></figure>"
    )


def _json(path: Path) -> Json | None:
    try:
        value = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return None
    return value if isinstance(value, dict) else None
