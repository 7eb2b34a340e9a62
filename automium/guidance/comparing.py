"""``compare_planner_backends``: a ready-made comparison call and how to read its report.

The call the prompt writes is checked as the tool checks its input (its contract, then its
domain rules), so a prompt the server renders always leads to a call the tool accepts.
"""

from __future__ import annotations

import json

from automium import corpus
from automium.benchmark import normalized_repetitions, parse_planners, request_problems
from automium.contracts import ComparePlannersInput, ErrorCode
from automium.errors import AutomiumError
from automium.guidance import Arguments, accepted_as
from automium.validation import to_model


def _repetitions(text: str) -> int:
    try:
        return normalized_repetitions(int(text.strip()))
    except ValueError:
        raise AutomiumError.single(
            ErrorCode.INVALID_INPUT,
            "repetitions must be a whole number (1 to 100; below 1 counts as 1)",
            "/repetitions",
        ) from None


def compare_planner_backends(args: Arguments) -> str:
    call = {
        "corpusVersion": corpus.CORPUS_VERSION,
        "appIds": [a.strip() for a in args["appIds"].split(",") if a.strip()],
        "planners": parse_planners(args["planners"]),
        "repetitions": _repetitions(args["repetitions"]),
    }
    accepted_as(
        "compare-planners-input.v1",
        call,
        lambda: request_problems(to_model(ComparePlannersInput, call)),
    )
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
