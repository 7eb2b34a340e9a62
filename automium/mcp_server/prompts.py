"""The three v1 prompts, filled with real corpus and contract data, and their completions.

Prompt arguments arrive as strings; a missing or unusable one is a JSON-RPC -32602 whose
data is a ``tool-error.v1`` document (never the SDK's default code 0). The domain is
imported on first use, so listing prompts costs a session's cold start nothing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from mcp import types

from automium import contracts
from automium.contracts import bundled_schema
from automium.mcp_server.errors import invalid_params

if TYPE_CHECKING:
    from automium.errors import Problem

Arguments = Mapping[str, str]
_MAX_ARGUMENT = 20_000  # characters; prompt text is for a context window, not a dump


@dataclass(frozen=True, slots=True)
class PromptSpec:
    name: str
    title: str
    description: str
    arguments: tuple[tuple[str, str], ...]  # (name, description); all required
    render: Callable[[Arguments], str]


def _raise(problem: Problem | None) -> None:
    if problem is not None:
        raise invalid_params(problem.code, problem.message, [str(a) for a in problem.allowed])


def _bullets(items: Mapping[str, str] | list[str]) -> str:
    if isinstance(items, Mapping):
        return "\n".join(f"- {k}: {v}" for k, v in items.items())
    return "\n".join(f"- {item}" for item in items)


def _intent_rules() -> list[str]:
    # Read from the contract itself, so the prompt can never disagree with the schema.
    defs = bundled_schema("journey.v1")["$defs"]
    return [
        str(defs[ref["$ref"].rsplit("/", 1)[1]]["description"]) for ref in defs["Step"]["oneOf"]
    ]


def _draft_journey(args: Arguments) -> str:
    from automium import corpus

    app_id, fixture_id, goal = args["appId"], args["fixtureId"], args["goal"]
    _raise(corpus.app_problem(app_id, "appId"))
    _raise(corpus.fixture_problem(fixture_id, app_id, "fixtureId"))
    app = corpus.get_app(app_id)
    fixture = corpus.get_fixture(fixture_id, app_id)
    example = corpus.reference_journeys(fixture_id)[0]
    routes = [f"{r.id} ({r.path}): {r.title}" for r in app.routes]
    return f"""Draft an Automium journey (contract journey.v1) for app {app.display_name} \
({app.id}), starting from fixture {fixture.id}: {fixture.description}

Goal: {goal}

Use the owned corpus only. Route ids of {app.id} (navigate and route_is take these ids, \
never URLs):
{_bullets(routes)}

Use only the frozen intent vocabulary; each intent needs exactly these fields:
{_bullets(_intent_rules())}

Targets are semantic locators {{"role", "name", "nth"?}} or snapshot refs {{"ref"}} — never \
CSS, XPath, script or URLs. Do not invent browser commands outside the vocabulary.

Include assertions, each with an id and afterStep naming a step. Kinds: \
{", ".join(contracts.AssertionKind)}.
Include bounded recovery: maxAttempts 1 to 3, strategies from \
{", ".join(contracts.RecoveryStrategy)}, and onExhausted fail_run or mark_blocked.

A reference journey of this fixture, as an example:
```json
{json.dumps(contracts.to_document(example), indent=2, ensure_ascii=False)}
```

Then call automium_compile_journey with your journey. If it reports problems, fix every one \
(each has a JSON path, a code and the allowed values) and compile again. Nothing is executed."""


def _debug_failed_run(args: Arguments) -> str:
    from automium.replay import FAILURE_CLASSES, INSPECT_LANES, required_kinds

    verdict = args["verdict"]
    if verdict not in contracts.Verdict.__members__.values():
        raise invalid_params(
            contracts.ErrorCode.INVALID_INPUT,
            f"verdict {verdict[:40]!r} is not a v1 verdict",
            list(contracts.Verdict),
        )
    lanes = INSPECT_LANES[contracts.Verdict(verdict)]
    kinds = required_kinds(contracts.Verdict(verdict), 0)
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
{_bullets(FAILURE_CLASSES)}
4. Say which evidence supports the class and what would confirm it.

Automium v1 is model-only: unless the evidence above came from a real run, do not claim \
live browser evidence — say the conclusion is drawn from modeled outputs."""


def _slug(text: str) -> str:
    # A planner id the contract accepts (lowercase letters, digits, ".", "_", "-").
    return re.sub(r"[^a-z0-9._-]+", "-", text.strip().lower()).strip("-._") or "planner"


def _planners(text: str) -> list[dict[str, str]]:
    """``vendor/model`` pairs, comma-separated (ids derived), or a JSON array of references."""
    if text.lstrip().startswith("["):
        try:
            parsed = json.loads(text)
        except json.JSONDecodeError:
            parsed = None
        if isinstance(parsed, list) and all(isinstance(p, dict) for p in parsed):
            return [{str(k): str(v) for k, v in p.items()} for p in parsed]
    else:
        pairs = [item.strip().split("/", 1) for item in text.split(",") if item.strip()]
        if pairs and all(len(p) == 2 and all(part.strip() for part in p) for p in pairs):
            return [
                {"id": _slug(f"{v}-{m}"), "vendor": v.strip(), "model": m.strip()} for v, m in pairs
            ]
    raise invalid_params(
        contracts.ErrorCode.MALFORMED_PLANNER_METADATA,
        "planners must be comma-separated vendor/model pairs (e.g. 'anthropic/claude-sonnet-4, "
        "openai/gpt-5') or a JSON array of {id, vendor, model}",
    )


def _compare_planner_backends(args: Arguments) -> str:
    from automium import corpus

    app_ids = [a.strip() for a in args["appIds"].split(",") if a.strip()]
    for index, app_id in enumerate(app_ids or [""]):
        _raise(corpus.app_problem(app_id, f"appIds/{index}"))
    planners = _planners(args["planners"])
    try:
        repetitions = int(args["repetitions"])
    except ValueError:
        raise invalid_params(
            contracts.ErrorCode.INVALID_INPUT, "repetitions must be a whole number (1 to 100)"
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


PROMPTS: tuple[PromptSpec, ...] = (
    PromptSpec(
        "draft_journey",
        "Draft a journey",
        "Guide the drafting of a valid journey for one app and fixture of the owned corpus.",
        (
            ("appId", "App id from automium://apps, e.g. shop-lite."),
            ("fixtureId", "Fixture id of that app, e.g. shop-lite.returning-buyer."),
            ("goal", "What the user wants to achieve, in words."),
        ),
        _draft_journey,
    ),
    PromptSpec(
        "debug_failed_run",
        "Debug a failed run",
        "Guide the interpretation of a run's replay and artifacts, and classify the failure.",
        (
            ("runId", "Run id, e.g. from automium_create_run_submission."),
            ("verdict", "passed, failed, errored or blocked."),
            ("evidence", "A replay summary or replay event snippets."),
            ("artifactManifestRef", "The run's artifact manifest ref, artifacts:run/<runId>."),
        ),
        _debug_failed_run,
    ),
    PromptSpec(
        "compare_planner_backends",
        "Compare planner backends",
        "Guide a comparison of planner backends on the owned corpus.",
        (
            ("appIds", "Comma-separated app ids, e.g. shop-lite,todo-mvc."),
            ("planners", "Comma-separated vendor/model pairs, e.g. anthropic/claude-sonnet-4."),
            ("repetitions", "Repetitions per reference journey, 1 to 100."),
        ),
        _compare_planner_backends,
    ),
)

PROMPTS_BY_NAME: Mapping[str, PromptSpec] = {p.name: p for p in PROMPTS}


@cache
def list_prompts_result() -> types.ListPromptsResult:
    return types.ListPromptsResult(
        prompts=[
            types.Prompt(
                name=p.name,
                title=p.title,
                description=p.description,
                arguments=[
                    types.PromptArgument(name=n, description=d, required=True)
                    for n, d in p.arguments
                ],
            )
            for p in PROMPTS
        ]
    )


def get(name: str, arguments: Mapping[str, str] | None) -> types.GetPromptResult:

    spec = PROMPTS_BY_NAME.get(name)
    if spec is None:
        raise invalid_params(
            contracts.ErrorCode.UNSUPPORTED_OPERATION,
            f"Unknown prompt {name[:100]!r}.",
            list(PROMPTS_BY_NAME),
        )
    given = dict(arguments or {})
    for arg, _ in spec.arguments:
        value = given.get(arg, "")
        if not value.strip():
            raise invalid_params(
                contracts.ErrorCode.INVALID_INPUT,
                f"Missing required argument {arg!r} of prompt {name}.",
            )
        if len(value) > _MAX_ARGUMENT:
            raise invalid_params(
                contracts.ErrorCode.LIMIT_EXCEEDED,
                f"Argument {arg!r} is {len(value)} characters long; the limit is {_MAX_ARGUMENT}.",
            )
    return types.GetPromptResult(
        description=spec.description,
        messages=[
            types.PromptMessage(
                role="user", content=types.TextContent(type="text", text=spec.render(given))
            )
        ],
    )


def complete(prompt: str, argument: str, value: str, context: Mapping[str, str]) -> list[str]:
    """Completion values for a prompt argument, filtered by the typed prefix."""
    from automium import corpus

    if argument in ("appId", "appIds"):
        head, _, prefix = value.rpartition(",") if argument == "appIds" else ("", "", value)
        lead = f"{head}," if head else ""
        return [lead + a for a in corpus.app_ids() if a.startswith(prefix.strip())]
    if argument == "fixtureId":
        app_id = context.get("appId")
        return [f for f in corpus.fixture_ids(app_id) if f.startswith(value)]
    if argument == "verdict" and prompt in PROMPTS_BY_NAME:
        return [v for v in contracts.Verdict if v.startswith(value)]
    return []
