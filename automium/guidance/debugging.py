"""``debug_failed_run``: how to read a run's replay and classify its failure."""

from __future__ import annotations

from automium import contracts
from automium.guidance import Arguments
from automium.replay import FAILURE_CLASSES, INSPECT_LANES, parse_verdict, required_kinds


def _bullets(items: dict[str, str]) -> str:
    return "\n".join(f"- {k}: {v}" for k, v in items.items())


def debug_failed_run(args: Arguments) -> str:
    verdict = parse_verdict(args["verdict"])
    lanes = INSPECT_LANES[verdict]
    kinds = required_kinds(verdict, 0)
    return f"""Debug Automium run {args["runId"]} (verdict: {verdict}; artifact manifest: \
{args["artifactManifestRef"]}).

Evidence supplied (replay summary or event snippets):
```
{args["evidence"]}
```

1. Call automium_get_replay_summary for this run to confirm which artifact kinds a \
{verdict} run needs: {", ".join(kinds)}.
2. Read the replay lanes, most telling first: {", ".join(lanes)}; then the others \
({", ".join(lane for lane in contracts.ReplayLane if lane not in lanes)}).
3. Classify the failure as exactly one of:
{_bullets(dict(FAILURE_CLASSES))}
4. Say which evidence supports the class and what would confirm it.

Automium v1 is model-only: unless the evidence above came from a real run, do not claim \
live browser evidence — say the conclusion is drawn from modeled outputs."""
