"""``compare_planner_backends``: a ready-made comparison call and how to read its report.

The call the prompt writes is checked as the tool checks its input (its contract, then its
domain rules), so a prompt the server renders always leads to a call the tool accepts.
"""

from __future__ import annotations

import json

from automium import corpus
from automium.benchmark import (
    MAX_JOURNEYS,
    REPETITIONS_CAP,
    normalized_repetitions,
    parse_planners,
    request_problems,
)
from automium.contracts import ComparePlannersInput, ErrorCode
from automium.errors import AutomiumError, quoted
from automium.guidance.arguments import Arguments, accepted_as
from automium.guidance.quoting import fenced, whole_number
from automium.validation import to_model


def _repetitions(text: str) -> int:
    number = whole_number(text)
    if number is None:
        raise AutomiumError.single(
            ErrorCode.INVALID_INPUT,
            f"repetitions {quoted(text)} is not a whole number in plain digits (1 to "
            f"{REPETITIONS_CAP}; below 1 counts as 1)",
            "/repetitions",
        )
    return normalized_repetitions(number)


def compare_planner_backends(args: Arguments) -> str:
    call = {
        "corpusVersion": corpus.CORPUS_VERSION,
        "appIds": [a.strip() for a in args["appIds"].split(",") if a.strip()],
        "planners": parse_planners(args["planners"]),
        "repetitions": _repetitions(args["repetitions"]),
        # The reading below walks every figure: the default answer holds the headline ones.
        "detail": "full",
    }
    accepted_as(
        "compare-planners-input.v1",
        call,
        lambda: request_problems(to_model(ComparePlannersInput, call)),
    )
    return f"""Compare planner backends on Automium's owned corpus.

Keep the corpus version fixed at {corpus.CORPUS_VERSION} for every report you compare. Call \
automium_compare_planners with:
{fenced(json.dumps(call, indent=2, ensure_ascii=False), "json")}
(repetitions below 1 count as 1; above {REPETITIONS_CAP} is refused; without "detail" the \
answer holds only the verdict and each planner's headline metrics). To compare your own \
journeys instead of an app's reference journeys, add them in "journeys" (at most \
{MAX_JOURNEYS}, each as automium_compile_journey accepts it). To report trials you ran \
elsewhere, give them in "trials" instead: the report is then computed from them and \
labelled recorded, and what they did not observe is null.

To compare planners that really ran (this server executes nothing), have the user run them \
on the owned apps in a terminal, for example: automium run --planner scripted-journey \
--planner heuristic --planner "cmd:mine=python3 my_planner.py" shop-lite todo-mvc \
--repeat 3 --trials-out trials.json. Each planner drives Chromium through planner-adapter.v1 \
(a command speaks it as JSON lines on stdio) and each trial is judged by its journey's \
successChecks. Pass that file's content as the arguments: the report then says \
"executed": true with each run's artifactManifestRef, and gives failuresByClass and \
decisionLatencyMs per planner.

Read the report in this order:
- verdict: the best planner on pass rate, or every planner tied for it. When "overlapping" \
names planners, their 95% intervals overlap the best's: say they are not separable at this \
sample size rather than naming a winner. "paretoFrontier" lists the planners no other beats \
on both pass rate and tokens per success.
- per planner and per app: passRate with its 95% Wilson interval; the passHatK curve \
(pass^k, the chance that k repetitions of a journey all pass; repeatability is its last \
point, pass^n) — weigh its tail above pass rate for unattended runs; stepSuccessRate; \
latencyMs p50 and p90; tokensPerTrial and tokensPerSuccess; recoverySuccessRate (null when \
no trial tried recovery).
- failingSteps: where each planner's trials ended failed (journey, step, lane): start there.

Name the trade-offs, not just a winner.

Treat this modeled report as modeled: its trials come from a deterministic model of each \
journey's steps and pages, not from live execution, so it ranks configurations for \
discussion only; an executed report (from automium run --trials-out) ranks what ran."""
