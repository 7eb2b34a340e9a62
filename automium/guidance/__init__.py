"""The v1 prompts (guidance for an agent), one row each, and their argument completion.

A row names the prompt, its title, description and arguments, and the domain function that
renders its text. The MCP boundary derives ``prompts/list`` and ``prompts/get`` from these
rows (and imports this table on the first of them). Arguments arrive as strings; a missing,
oversized or unusable one raises :class:`~automium.errors.AutomiumError` with a tool-error
code.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from automium.contracts import ErrorCode
from automium.errors import AutomiumError, quoted
from automium.guidance.arguments import Arguments
from automium.guidance.comparing import compare_planner_backends
from automium.guidance.debugging import debug_failed_run
from automium.guidance.drafting import draft_journey
from automium.limits import MAX_PROMPT_ARGUMENT, MAX_PROMPT_EVENTS

LONG_ARGUMENTS: Mapping[str, int] = {"events": MAX_PROMPT_EVENTS}
"""Arguments allowed more than :data:`~automium.limits.MAX_PROMPT_ARGUMENT` characters."""


def argument_limit(name: str) -> int:
    """Characters prompt argument ``name`` may have."""
    return LONG_ARGUMENTS.get(name, MAX_PROMPT_ARGUMENT)


@dataclass(frozen=True, slots=True)
class Guide:
    """One prompt: its name, what it is for, its arguments and what renders it."""

    name: str
    title: str
    description: str
    arguments: tuple[tuple[str, str], ...]
    """``(name, description)`` of each argument."""
    renderer: Callable[[Arguments], str]
    """The function that turns checked arguments into the text."""
    optional: frozenset[str] = frozenset()
    """Arguments that may be left out (the others are required)."""

    def render(self, arguments: Mapping[str, str] | None) -> str:
        """The prompt text; raises :class:`AutomiumError` for a refused argument."""
        given = {k: v for k, v in (arguments or {}).items() if v.strip() or k not in self.optional}
        for name, _ in self.arguments:
            value = given.get(name, "")
            if name in self.optional and name not in given:
                continue
            if not value.strip():
                raise AutomiumError.single(
                    ErrorCode.INVALID_INPUT,
                    f"Missing required argument {quoted(name)} of prompt {self.name}.",
                    f"/{name}",
                )
            if len(value) > (limit := argument_limit(name)):
                raise AutomiumError.single(
                    ErrorCode.LIMIT_EXCEEDED,
                    f"Argument {quoted(name)} of prompt {self.name} is {len(value):,} "
                    f"characters long; the limit is {limit:,}.",
                    f"/{name}",
                )
        return self.renderer(given)


GUIDES: tuple[Guide, ...] = (
    Guide(
        "draft_journey",
        "Draft a journey",
        "Guide the drafting of a valid journey for one app and fixture of the owned corpus.",
        (
            ("appId", "App id from automium://apps, e.g. shop-lite."),
            ("fixtureId", "Fixture id of that app, e.g. shop-lite.returning-buyer."),
            ("goal", "What the user wants to achieve, in words."),
        ),
        draft_journey,
    ),
    Guide(
        "debug_failed_run",
        "Debug a failed run",
        "Guide the interpretation of a run's replay and artifacts, and classify the failure.",
        (
            ("runId", "Run id, e.g. from automium_create_run_submission."),
            ("verdict", "passed, failed, errored or blocked."),
            ("evidence", "What you know of the failure, in words (quoted as data)."),
            ("artifactManifestRef", "The run's artifact manifest ref, artifacts:run/<runId>."),
            ("retryCount", "Optional: retries the run used, 0 (the default) or more."),
            ("journeyRef", "Optional: the journey ref the run is bound to."),
            ("events", "Optional: replay events of the run, a JSON array (replay-event.v1)."),
        ),
        debug_failed_run,
        optional=frozenset({"retryCount", "journeyRef", "events"}),
    ),
    Guide(
        "compare_planner_backends",
        "Compare planner backends",
        "Guide a comparison of planner backends on the owned corpus.",
        (
            ("appIds", "Comma-separated app ids, e.g. shop-lite,todo-mvc."),
            ("planners", "Comma-separated vendor/model pairs, e.g. anthropic/claude-sonnet-4."),
            ("repetitions", "Repetitions per journey, 1 to 100 (below 1 counts as 1)."),
        ),
        compare_planner_backends,
    ),
)
"""Every v1 prompt, in the order ``prompts/list`` shows them."""

BY_NAME: Mapping[str, Guide] = {g.name: g for g in GUIDES}


def find(name: str) -> Guide:
    """The prompt called ``name``; an unknown name is ``unsupported_operation``."""
    guide = BY_NAME.get(name)
    if guide is None:
        raise AutomiumError.single(
            ErrorCode.UNSUPPORTED_OPERATION, f"Unknown prompt {quoted(name)}.", "", list(BY_NAME)
        )
    return guide


def complete(prompt: str, argument: str, value: str, context: Mapping[str, str]) -> list[str]:
    """Completion values for an argument of a known prompt, filtered by the typed prefix.

    An unknown prompt or argument gets no values (an empty completion, as MCP clients and
    its conformance suite expect, not an error). Values are suggestions only: what they
    repeat of ``value`` (the app ids before the last comma of ``appIds``) is known ids, so
    a value that is no prefix of one gets no values, never an echo.
    """
    guide = BY_NAME.get(prompt)
    if guide is None or argument not in {name for name, _ in guide.arguments}:
        return []
    suggest = _SUGGESTIONS.get(argument)
    return [] if suggest is None else suggest(value, context)


def _app_ids(value: str, _context: Mapping[str, str]) -> list[str]:
    from automium import corpus  # noqa: PLC0415

    return [a for a in corpus.app_ids() if a.startswith(value)]


def _app_id_lists(value: str, _context: Mapping[str, str]) -> list[str]:
    """The next app id of a comma-separated list whose earlier ids are distinct known ids
    (so what a value repeats is at most the five app ids, never the caller's text)."""
    from automium import corpus  # noqa: PLC0415

    *given, prefix = [a.strip() for a in value.split(",")]
    known = corpus.app_ids()
    if not set(given) <= set(known) or len(set(given)) != len(given):
        return []
    lead = "".join(f"{a}," for a in given)
    return [lead + a for a in known if a.startswith(prefix) and a not in given]


def _fixture_ids(value: str, context: Mapping[str, str]) -> list[str]:
    from automium import corpus  # noqa: PLC0415

    app_id = context.get("appId")
    if app_id is not None and app_id not in corpus.app_ids():
        return []  # no fixture of an unknown app, rather than every fixture
    return [f for f in corpus.fixture_ids(app_id) if f.startswith(value)]


def _verdicts(value: str, _context: Mapping[str, str]) -> list[str]:
    from automium.contracts import Verdict  # noqa: PLC0415

    return [v for v in Verdict if v.startswith(value)]


_SUGGESTIONS: Mapping[str, Callable[[str, Mapping[str, str]], list[str]]] = {
    "appId": _app_ids,
    "appIds": _app_id_lists,
    "fixtureId": _fixture_ids,
    "verdict": _verdicts,
}
