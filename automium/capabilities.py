"""The v1 capabilities: one row per tool, and the only list of them.

A row names the tool, its title and description, its input and output contracts, the
domain function that runs it and its one-line summary. The MCP boundary derives
``tools/list`` and ``tools/call`` from these rows, adapters and scripts call
:meth:`Capability.run`, and the tests build their tables from :data:`CAPABILITIES`: adding
a tool means adding a row here (and its cases to ``tests/cases.py``).

Importing this module is cheap: a row names its domain function as ``"module:function"``
and imports it on the first call, so an MCP session can list its tools without loading the
domain. ``tests/domain/test_capabilities.py`` checks that every named function exists and
takes and returns the models of the row's contracts.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

from pydantic import BaseModel

from automium import contracts
from automium.contracts import to_document
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
        ListAppsInput,
        ListFixturesInput,
        ReplaySummary,
        ReplaySummaryInput,
        RunSubmission,
    )

In = TypeVar("In")
Out = TypeVar("Out", bound=BaseModel)


@dataclass(frozen=True, slots=True)
class Capability(Generic[In, Out]):
    """One tool: what it is called, what it takes and returns, and what runs it."""

    name: str
    title: str
    description: str
    input_contract: str
    output_contract: str
    handler: str
    """The domain function, ``"package:function"``, taking ``In`` and returning ``Out``. A
    package, never one of its modules: the warm-up thread may be importing the package
    while a first call resolves its handler, and only a package's import makes the other
    thread wait for it to finish (a module imported on its own can meet the package's
    import half-done)."""
    summary: Callable[[Mapping[str, Any]], str]
    """The one-line summary of an output document, for the text content of an answer."""
    cacheable: bool = False
    """The output depends only on the arguments and the checked-in corpus."""
    takes_document: bool = False
    """The handler gets the raw arguments and checks them against the contract itself (a
    journey is checked against its contract and the corpus in one pass)."""
    document_handler: str | None = None
    """For a domain that builds its output document itself: the function (``"package:
    function"``, as ``handler``) that returns that document, exactly what the handler's
    model dumps to. :meth:`answer` calls it instead of
    building the model and dumping it again (half of what a compile spent after its checks).
    The tests hold both to the output contract and to each other."""

    def run(self, arguments: object) -> Out:
        """Check ``arguments`` (limits, then the input contract) and run the domain function.

        Raises :class:`~automium.errors.AutomiumError` for any input it refuses.
        """
        return self.function()(cast(In, self._request(arguments)))

    def _request(self, arguments: object) -> object:
        check_arguments(arguments)  # size and depth first: bounds the work of everything after
        return arguments if self.takes_document else _parse(self.input_contract, arguments)

    def function(self) -> Callable[[In], Out]:
        return cast(Callable[[In], Out], resolve(self.handler))

    def prepare(self) -> None:
        """Load what this tool's first call would: its domain modules, and the checks and
        models of its contracts. Nothing is computed that a call would not reuse."""
        # Packages, not their modules (see ``handler``): a call may be importing them.
        from automium import validation  # noqa: PLC0415 - loaded on first use
        from automium.contracts import model_for  # noqa: PLC0415

        self.function()
        for contract in (self.input_contract, self.output_contract):
            validation.checking.validator(contract)
            model_for(contract)

    def answer(self, arguments: object) -> tuple[str, dict[str, Any]]:
        """The summary line and the output document of a call (:meth:`run`'s output, as the
        wire spells it). Raises as :meth:`run` does."""
        if self.document_handler is None:
            document = to_document(self.run(arguments))
        else:
            document = resolve(self.document_handler)(self._request(arguments))
        return self.summarize(document), document

    def summarize(self, document: Mapping[str, Any]) -> str:
        """The summary line; an output that could be mistaken for execution says it was not."""
        line = self.summary(document)
        return f"{line} {NOT_EXECUTED}" if document.get("modeled") else line


@cache
def resolve(handler: str) -> Callable[..., Any]:
    """The function named ``"module:function"``, imported once."""
    module, _, function = handler.partition(":")
    resolved: Callable[..., Any] = getattr(importlib.import_module(module), function)
    return resolved


def _parse(contract: str, arguments: object) -> BaseModel:
    from automium import corpus  # noqa: PLC0415 - the corpus loads on the first call
    from automium.contracts import model_for  # noqa: PLC0415
    from automium.validation import parse  # noqa: PLC0415

    return parse(contract, arguments, model_for(contract), corpus.vocabularies())


Document = Mapping[str, Any]


def _ids(items: list[Document]) -> str:
    return ", ".join(str(item["id"]) for item in items)


def _apps_line(catalog: Document) -> str:
    apps = catalog["apps"]
    return f"{len(apps)} apps in corpus {catalog['corpusVersion']}: {_ids(apps)}."


def _fixtures_line(catalog: Document) -> str:
    return f"{len(catalog['fixtures'])} fixtures: {_ids(catalog['fixtures'])}."


def _compilation_line(compilation: Document) -> str:
    return (
        f"Journey {compilation['journeyId']} is {_verdict(compilation)}: "
        f"{compilation['stepCount']} steps, {compilation['assertionCount']} assertions, "
        f"{len(compilation['graph']['nodes'])} graph nodes."
    )


def _verdict(compilation: Document) -> str:
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


def _submission_line(submission: Document) -> str:
    timeline = submission["timeline"]
    return (
        f"Modeled run {submission['runId']} of {submission['journeyRef']}: "
        f"{timeline['events']} events over {timeline['steps']} steps, modeled verdict "
        f"{timeline['verdict']}{_not_known(timeline)}."
    )


def _not_known(timeline: Document) -> str:
    """The assertions compile could not check: a modeled run does not know them either."""
    count = len(timeline.get("assertionsNotKnown", ()))
    if not count:
        return ""
    plural = "s" if count > 1 else ""
    return f"; {count} assertion{plural} not known (modeled: only a real run can say)"


def _replay_line(summary: Document) -> str:
    kinds = ", ".join(summary["requiredArtifactKinds"])
    line = f"Replay summary for {summary['runId']} ({summary['verdict']}): needs {kinds}."
    digest = summary.get("digest")
    if digest is None or digest.get("classification") is None:
        return line
    found = digest["classification"]
    step = f" at step {digest['failingStep']}" if digest.get("failingStep") else ""
    return f"{line} The events point to {found['failureClass']}{step}: {found['rule']}."


def _manifest_line(manifest: Document) -> str:
    line = f"Artifact manifest for {manifest['runId']}: {len(manifest['entries'])} entries"
    if manifest.get("missingKinds") is None:
        return line + "."
    missing = ", ".join(manifest["missingKinds"]) or "none"
    return f"{line}; missing for the verdict: {missing}."


def _comparison_line(report: Document) -> str:
    trials = report["trialCount"]
    depth = f", k up to {report['repetitions']}" if trials else ""
    line = (
        f"Compared {len(report['planners'])} planner(s) on {len(report['appIds'])} app(s), "
        f"{trials} {report['source']} trials{depth}: {report['verdict']['summary']}"
    )
    if report.get("recorded") is not None:
        line += " The trials were recorded elsewhere and given in the request: nothing ran here."
    return line


LIST_APPS: Capability[ListAppsInput, AppCatalog] = Capability(
    name="automium_list_apps",
    title="List benchmark apps",
    description="List the apps of Automium's owned benchmark corpus with their route manifests. "
    "Use it first, to pick an app and its route ids.",
    input_contract="list-apps-input.v1",
    output_contract="app-catalog.v1",
    handler="automium.corpus:list_apps",
    summary=_apps_line,
    cacheable=True,
)
LIST_FIXTURES: Capability[ListFixturesInput, FixtureCatalog] = Capability(
    name="automium_list_fixtures",
    title="List benchmark fixtures",
    description="List the corpus fixtures (of one app, or all) with their environment profiles, "
    "entities, files, account refs (never secrets) and reference journeys. Use it to pick a "
    "fixtureId and environmentProfileId.",
    input_contract="list-fixtures-input.v1",
    output_contract="fixture-catalog.v1",
    handler="automium.corpus:list_fixtures",
    summary=_fixtures_line,
    cacheable=True,
)
COMPILE_JOURNEY: Capability[object, JourneyCompilation] = Capability(
    name="automium_compile_journey",
    title="Validate and compile a journey",
    description="Check a journey against the corpus and the pages of its fixture, step by step, "
    "and compile it into its graph. An invalid journey gets an error listing every problem with "
    "its JSON path and allowed values. Runs nothing.",
    input_contract="journey.v1",
    output_contract="journey-compilation.v1",
    handler="automium.journeys:compile_journey",
    summary=_compilation_line,
    takes_document=True,
    document_handler="automium.journeys:compilation_document",
)
CREATE_RUN_SUBMISSION: Capability[object, RunSubmission] = Capability(
    name="automium_create_run_submission",
    title="Model a run submission",
    description="Model a run of a journey with a planner: a deterministic run id, the journey's "
    "ref, artifact and replay refs, and the modeled timeline (its events with includeEvents; a "
    "failing variant with failure). Nothing is queued or executed.",
    input_contract="run-submission-input.v1",
    output_contract="run-submission.v1",
    handler="automium.runs:create_run_submission",
    summary=_submission_line,
    takes_document=True,
)
GET_REPLAY_SUMMARY: Capability[ReplaySummaryInput, ReplaySummary] = Capability(
    name="automium_get_replay_summary",
    title="Summarise a run's replay",
    description="Summarise a run from what you supply: the artifact kinds its verdict needs and "
    "the lanes to read first; with replay events, a digest per lane, the failing step and the "
    "failure's class. Reads no file.",
    input_contract="replay-summary-input.v1",
    output_contract="replay-summary.v1",
    handler="automium.replay:replay_summary",
    summary=_replay_line,
)
GET_ARTIFACT_MANIFEST: Capability[object, ArtifactManifest] = Capability(
    name="automium_get_artifact_manifest",
    title="Build an artifact manifest",
    description="Build a run's artifact manifest from entries you supply: kinds from the "
    "vocabulary, canonical relative paths under the root, content types inferred; with the "
    "verdict, the kinds missing. Reads, writes and uploads no file.",
    input_contract="artifact-manifest-input.v1",
    output_contract="artifact-manifest.v1",
    handler="automium.artifacts:build_manifest",
    summary=_manifest_line,
    takes_document=True,
)
COMPARE_PLANNERS: Capability[object, BenchmarkReport] = Capability(
    name="automium_compare_planners",
    title="Compare planner backends",
    description="Compare planner backends on reference journeys or your own: pass rate with a 95% "
    "interval, pass^k, step success, latency, tokens per success and recovery, per planner and "
    "app, the steps that fail most, and a verdict. Trials are modeled (no planner is called) "
    "unless you give recorded ones.",
    input_contract="compare-planners-input.v1",
    output_contract="benchmark-report.v1",
    handler="automium.benchmark:compare_planners",
    summary=_comparison_line,
    takes_document=True,
    document_handler="automium.benchmark:report_document",
)

CAPABILITIES: tuple[Capability[Any, Any], ...] = (
    LIST_APPS,
    LIST_FIXTURES,
    COMPILE_JOURNEY,
    CREATE_RUN_SUBMISSION,
    GET_REPLAY_SUMMARY,
    GET_ARTIFACT_MANIFEST,
    COMPARE_PLANNERS,
)
"""Every v1 tool, in the order ``tools/list`` shows them."""

BY_NAME: Mapping[str, Capability[Any, Any]] = {c.name: c for c in CAPABILITIES}


def find(name: str) -> Capability[Any, Any]:
    """The capability called ``name``; an unknown name is ``unsupported_operation``."""
    capability = BY_NAME.get(name)
    if capability is None:
        raise AutomiumError.single(
            contracts.ErrorCode.UNSUPPORTED_OPERATION,
            f"{quoted(name)} is not a v1 tool. Automium v1 is model-only: live execution (running "
            "a browser, a planner or a queue) is not part of v1. Use one of the listed tools.",
            "",
            list(BY_NAME),
        )
    return capability
