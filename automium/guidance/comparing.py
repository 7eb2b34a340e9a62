"""``compare_planner_backends``: a ready-made comparison call and how to read its report."""

from __future__ import annotations

import json

from automium import corpus
from automium.benchmark import parse_planners
from automium.contracts import ErrorCode
from automium.errors import AutomiumError
from automium.guidance import Arguments


def compare_planner_backends(args: Arguments) -> str:
    app_ids = [a.strip() for a in args["appIds"].split(",") if a.strip()]
    for app_id in app_ids or [""]:
        if problem := corpus.app_problem(app_id, ""):
            raise AutomiumError([problem])
    planners = parse_planners(args["planners"])
    try:
        repetitions = int(args["repetitions"])
    except ValueError:
        raise AutomiumError.single(
            ErrorCode.INVALID_INPUT, "repetitions must be a whole number (1 to 100)"
        ) from None
    call = {
        "corpusVersion": corpus.CORPUS_VERSION,
        "appIds": app_ids,
        "planners": planners,
        "repetitions": repetitions,
    }
    return f"""Compare planner backends on Automium's owned corpus.

Keep the corpus version fixed at {corpus.CORPUS_VERSION} for every report you compare. Call \
automium_compare_planners with:
```json
{json.dumps(call, indent=2, ensure_ascii=False)}
```
(repetitions below 1 count as 1; above 100 is refused).

Compare, per planner and per app: repeatability (pass^k, the chance all k repetitions of a \
journey pass — weigh it above pass rate for unattended runs), pass rate, median journey \
latency, token spend (input, output, total) and recovery success rate. Name the trade-offs, \
not just a winner.

Treat the report as modeled: its trials come from a deterministic model, not from \
provider-backed planners or live execution, so it ranks configurations for discussion only \
until both exist."""
