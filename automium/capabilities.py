"""The v1 capabilities: one row per tool, and the only list of them.

A row names the tool, its title and description, its input and output contracts, its
handler and its one-line summary. The MCP boundary derives ``tools/list`` and
``tools/call`` from these rows, and the tests build their tables from
:data:`CAPABILITIES`: adding a tool means adding a row here (and its cases to
``tests/cases.py``).

Every handler has one shape: it takes the arguments of a call, checked against the input
limits (:mod:`automium.limits`), checks them against its input contract and returns the
output document, as the wire spells it. :meth:`Capability.answer` is the one way to run a
tool, for the server and the tests alike.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantic import BaseModel

from automium import contracts
from automium.errors import AutomiumError, quoted
from automium.limits import check_arguments
from automium.modeled import NOT_EXECUTED

if TYPE_CHECKING:
    from automium.contracts import (
        AppCatalog,
        ArtifactManifest,
        BenchmarkReport,
        FixtureCatalog,
        JourneyCompilation,
        ReplaySummary,
        RunSubmission,
    )

Out = TypeVar("Out", bound=BaseModel)
Document = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Capability(Generic[Out]):
    """One tool: what it is called, what it takes and returns, and what runs it. ``Out`` is
    the model of its output contract, for a caller that reads an answer through it."""

    name: str
    title: str
    description: str
    input_contract: str
    output_contract: str
    handler: Callable[[object], Document]
    """Checks the arguments against the input contract and returns the output document;
    raises :class:`~automium.errors.AutomiumError` for any input it refuses."""
    summary: Callable[[Mapping[str, Any]], str]
    """The one-line summary of an output document, for the text content of an answer."""
    cacheable: bool = False
    """The output depends only on the arguments and the checked-in corpus."""

    def answer(self, arguments: object) -> tuple[str, Document]:
        """The summary line and the output document of a call. Raises
        :class:`~automium.errors.AutomiumError` for any input it refuses."""
        check_arguments(arguments)  # size and depth first: bounds the work of everything after
        document = self.handler(arguments)
        return self.summarize(document), document

    def summarize(self, document: Mapping[str, Any]) -> str:
        """The summary line; an output that could be mistaken for execution says it was not."""
        line = self.summary(document)
        return f"{line} {NOT_EXECUTED}" if document.get("modeled") else line


# The handlers import the domain when first called: importing it with this table, which
# tools/list needs, would add the domain's import (about 25% of the SDK's own, measured
# with -X importtime on 2026-12-03) to every session's cold start, whose budget is 1.10x a
# bare server (importing only the models at start-up already measured 1.12x bare).


def _parsed(contract: str, arguments: object) -> Any:
    """``arguments`` as the model of ``contract``, or every problem against it."""
    from automium import corpus  # noqa: PLC0415 - see above
    from automium.contracts import model_for  # noqa: PLC0415
    from automium.validation import parse  # noqa: PLC0415

    return parse(contract, arguments, model_for(contract), corpus.vocabularies())


def _list_apps(arguments: object) -> Document:
    from automium import corpus  # noqa: PLC0415

    return contracts.to_document(corpus.list_apps(_parsed("list-apps-input.v1", arguments)))


def _list_fixtures(arguments: object) -> Document:
    from automium import corpus  # noqa: PLC0415

    request = _parsed("list-fixtures-input.v1", arguments)
    return contracts.to_document(corpus.list_fixtures(request))


def _compile_journey(arguments: object) -> Document:
    # The journey is checked against its contract, the corpus and its pages in one pass.
    from automium.compilation import compilation_document  # noqa: PLC0415

    return compilation_document(arguments)


def _create_run_submission(arguments: object) -> Document:
    from automium.runs import create_run_submission  # noqa: PLC0415

    return contracts.to_document(create_run_submission(arguments))


def _replay_summary(arguments: object) -> Document:
    from automium.replay import replay_summary  # noqa: PLC0415

    request = _parsed("replay-summary-input.v1", arguments)
    return contracts.to_document(replay_summary(request))


def _build_manifest(arguments: object) -> Document:
    from automium.artifacts import build_manifest  # noqa: PLC0415

    return contracts.to_document(build_manifest(arguments))


def _compare_planners(arguments: object) -> Document:
    from automium.benchmark import report_document  # noqa: PLC0415

    return report_document(arguments)


def _ids(items: list[Mapping[str, Any]]) -> str:
    return ", ".join(str(item["id"]) for item in items)


def _apps_line(catalog: Mapping[str, Any]) -> str:
    apps = catalog["apps"]
    return f"{len(apps)} apps in corpus {catalog['corpusVersion']}: {_ids(apps)}."


def _fixtures_line(catalog: Mapping[str, Any]) -> str:
    return f"{len(catalog['fixtures'])} fixtures: {_ids(catalog['fixtures'])}."


def _compilation_line(compilation: Mapping[str, Any]) -> str:
    line = (
        f"Journey {compilation['journeyId']} is {_verdict(compilation)}: "
        f"{compilation['stepCount']} steps, {compilation['assertionCount']} assertions, "
        f"{len(compilation['graph']['nodes'])} graph nodes."
    )
    exports = compilation.get("exports")
    if not exports:
        return line
    names = ", ".join(e["fileName"] for e in exports)
    return f"{line} Exported as {names}, to save and run: nothing was run or written."


def _verdict(compilation: Mapping[str, Any]) -> str:
    """``valid``, then what is left to a run and the warnings, counted: "valid; 2
    assertions unchecked (dynamic); 1 warning"."""
    parts = ["valid"]
    unchecked = compilation.get("unchecked", [])
    for section in ("assertion", "step"):
        reasons = [u["reason"] for u in unchecked if u["path"].startswith(f"/{section}s/")]
        if reasons:
            why = sorted({"unknown page" if r == "unknown_page" else "dynamic" for r in reasons})
            plural = "s" if len(reasons) > 1 else ""
            parts.append(f"{len(reasons)} {section}{plural} unchecked ({', '.join(why)})")
    warnings = len(compilation["warnings"])
    if warnings:
        parts.append(f"{warnings} warning{'s' if warnings > 1 else ''}")
    return "; ".join(parts)


def _submission_line(submission: Mapping[str, Any]) -> str:
    timeline = submission["timeline"]
    return (
        f"Modeled run {submission['runId']} of {submission['journeyId']}: "
        f"{timeline['events']} events over {timeline['steps']} steps, modeled verdict "
        f"{timeline['verdict']}{_not_known(timeline)}."
    )


def _not_known(timeline: Mapping[str, Any]) -> str:
    """The assertions compile could not check: a modeled run does not know them either."""
    count = len(timeline.get("assertionsNotKnown", ()))
    if not count:
        return ""
    plural = "s" if count > 1 else ""
    return f"; {count} assertion{plural} not known (modeled: only a real run can say)"


def _replay_line(summary: Mapping[str, Any]) -> str:
    kinds = ", ".join(summary["requiredArtifactKinds"])
    line = f"Replay summary for {summary['runId']} ({summary['verdict']}): needs {kinds}."
    digest = summary.get("digest")
    if digest is None or digest.get("classification") is None:
        return line
    found = digest["classification"]
    step = f" at step {digest['failingStep']}" if digest.get("failingStep") else ""
    return f"{line} The events point to {found['failureClass']}{step}: {found['rule']}."


def _manifest_line(manifest: Mapping[str, Any]) -> str:
    line = f"Artifact manifest for {manifest['runId']}: {len(manifest['entries'])} entries"
    if manifest.get("missingKinds") is None:
        return line + "."
    missing = ", ".join(manifest["missingKinds"]) or "none"
    return f"{line}; missing for the verdict: {missing}."


def _comparison_line(report: Mapping[str, Any]) -> str:
    # The verdict's words are in the document: the line names the leaders only, so a text
    # client reads it at a glance and the answer does not carry the verdict twice.
    trials = report["trialCount"]
    depth = f", k up to {report['repetitions']}" if trials else ""
    verdict = report["verdict"]
    best = verdict["best"]
    leaders = (
        "modeled trials rank no planner"
        if report["source"] == "modeled"
        else f"{len(best)} planners tied best"
        if len(best) > 3
        else f"best {', '.join(best)}{' (tied)' if verdict['tied'] else ''}"
        if best
        else "no planner has trials"
    )
    line = (
        f"Compared {len(report['planners'])} planner(s) on {len(report['appIds'])} app(s), "
        f"{trials} {report['source']} trials{depth}: {leaders}; see verdict.summary."
    )
    if report.get("recorded") is not None:
        line += " The trials were recorded elsewhere and given in the request: nothing ran here."
    return line


LIST_APPS: Capability[AppCatalog] = Capability(
    name="automium_list_apps",
    title="List benchmark apps",
    description="List the apps of Automium's owned benchmark corpus with their route manifests. "
    "Use it first, to pick an app and its route ids.",
    input_contract="list-apps-input.v1",
    output_contract="app-catalog.v1",
    handler=_list_apps,
    summary=_apps_line,
    cacheable=True,
)
LIST_FIXTURES: Capability[FixtureCatalog] = Capability(
    name="automium_list_fixtures",
    title="List benchmark fixtures",
    description="List the corpus fixtures (of one app, or all) with their environment profiles, "
    "entities, files, account refs (never secrets) and reference journeys. Use it to pick a "
    "fixtureId and environmentProfileId.",
    input_contract="list-fixtures-input.v1",
    output_contract="fixture-catalog.v1",
    handler=_list_fixtures,
    summary=_fixtures_line,
    cacheable=True,
)
COMPILE_JOURNEY: Capability[JourneyCompilation] = Capability(
    name="automium_compile_journey",
    title="Validate and compile a journey",
    description="Check a journey against the corpus and the pages of its fixture, step by step, "
    "and compile it into its graph. An invalid journey gets an error listing every problem with "
    "its JSON path and allowed values. Runs nothing.",
    input_contract="journey.v1",
    output_contract="journey-compilation.v1",
    handler=_compile_journey,
    summary=_compilation_line,
)
CREATE_RUN_SUBMISSION: Capability[RunSubmission] = Capability(
    name="automium_create_run_submission",
    title="Model a run submission",
    description="Model a run of a journey with a planner: a deterministic run id, the journey's "
    "ref, artifact and replay refs, and the modeled timeline (its events with includeEvents; a "
    "failing variant with failure). Nothing is queued or executed.",
    input_contract="run-submission-input.v1",
    output_contract="run-submission.v1",
    handler=_create_run_submission,
    summary=_submission_line,
)
GET_REPLAY_SUMMARY: Capability[ReplaySummary] = Capability(
    name="automium_get_replay_summary",
    title="Summarise a run's replay",
    description="Summarise a run from what you supply: the artifact kinds its verdict needs and "
    "the lanes to read first; with replay events, a digest per lane, the failing step and the "
    "failure's class. Reads no file.",
    input_contract="replay-summary-input.v1",
    output_contract="replay-summary.v1",
    handler=_replay_summary,
    summary=_replay_line,
)
GET_ARTIFACT_MANIFEST: Capability[ArtifactManifest] = Capability(
    name="automium_get_artifact_manifest",
    title="Build an artifact manifest",
    description="Build a run's artifact manifest from entries you supply: kinds from the "
    "vocabulary, canonical relative paths under the root, content types inferred; with the "
    "verdict, the kinds missing. Reads, writes and uploads no file.",
    input_contract="artifact-manifest-input.v1",
    output_contract="artifact-manifest.v1",
    handler=_build_manifest,
    summary=_manifest_line,
)
COMPARE_PLANNERS: Capability[BenchmarkReport] = Capability(
    name="automium_compare_planners",
    title="Compare planner backends",
    description="Compare planner backends on reference journeys or your own: per planner, pass "
    "rate with a 95% interval, pass^n, latency, tokens per success and recovery, and a verdict; "
    'with detail "full", per app too, with pass^k and the steps that fail most. Trials are '
    "modeled (no planner is called) unless you give recorded ones.",
    input_contract="compare-planners-input.v1",
    output_contract="benchmark-report.v1",
    handler=_compare_planners,
    summary=_comparison_line,
)

CAPABILITIES: tuple[Capability[Any], ...] = (
    LIST_APPS,
    LIST_FIXTURES,
    COMPILE_JOURNEY,
    CREATE_RUN_SUBMISSION,
    GET_REPLAY_SUMMARY,
    GET_ARTIFACT_MANIFEST,
    COMPARE_PLANNERS,
)
"""Every v1 tool, in the order ``tools/list`` shows them."""

BY_NAME: Mapping[str, Capability[Any]] = {c.name: c for c in CAPABILITIES}


def find(name: str) -> Capability[Any]:
    """The capability called ``name``; an unknown name is ``unsupported_operation``."""
    capability = BY_NAME.get(name)
    if capability is None:
        raise AutomiumError.single(
            contracts.ErrorCode.UNSUPPORTED_OPERATION,
            f"{quoted(name)} is not a v1 tool. The MCP server is model-only: it never runs a "
            "browser, a planner or a queue (a real run is `automium run`, outside the server). "
            "Use one of the listed tools.",
            "",
            list(BY_NAME),
        )
    return capability
