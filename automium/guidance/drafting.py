"""``draft_journey``: what an agent needs to write a journey that compiles first time."""

from __future__ import annotations

import json

from automium import contracts, corpus
from automium.contracts import bundled_schema
from automium.errors import AutomiumError
from automium.guidance import Arguments


def _bullets(items: list[str]) -> str:
    return "\n".join(f"- {item}" for item in items)


def _intent_rules() -> list[str]:
    # Read from the contract itself, so the prompt can never disagree with the schema.
    defs = bundled_schema("journey.v1")["$defs"]
    return [
        str(defs[ref["$ref"].rsplit("/", 1)[1]]["description"]) for ref in defs["Step"]["oneOf"]
    ]


def draft_journey(args: Arguments) -> str:
    app_id, fixture_id, goal = args["appId"], args["fixtureId"], args["goal"]
    for problem in (
        corpus.app_problem(app_id, ""),
        corpus.fixture_problem(fixture_id, app_id, ""),
    ):
        if problem is not None:
            raise AutomiumError([problem])
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
