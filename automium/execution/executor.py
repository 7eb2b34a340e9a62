"""Run a compiled journey in headless Chromium against its owned app, and keep the evidence.

One run: the fixture's app is served on loopback (:class:`~automium.hosting.AppServer`), a
browser context opens with the fixture's environment profile, and the journey's steps run
as a scripted planner decides them (planner ``scripted-journey``: the journey is the plan,
no model runs). Each step's action is Playwright's own (:mod:`.actions`), each assertion
Playwright's web-first ``expect`` with a bounded timeout, and the journey's recovery is
applied for real, at most ``maxAttempts`` times per step or assertion, before
``onExhausted`` decides the verdict. Every event goes to the lanes of ``replay-event.v1``
(:mod:`.replay`), every file to the run directory (:mod:`.evidence`).

Secrets: a ``secretRef`` is resolved from the app's seed accounts, never from the journey.
Tracing is paused from a secret's fill until the page has loaded a new document (a trace
snapshot records every field's value), request bodies are dropped from the HAR, and every
text artifact is written with the secret masked. The field a secret is typed into is made
unreadable first (its text and caret transparent, :data:`.actions.HIDE_TEXT`), and every
screenshot masks it too until that new document, so no image the run keeps shows a secret.

Evidence levels (:mod:`automium.artifacts.levels`): ``full`` keeps all of the above;
``on-failure`` records the trace and HAR, and a screenshot and semantic snapshot of the failing
step only, and keeps them only when the run did not pass; ``verdict`` records neither. The
manifest lists what the level left out as ``notRecorded``.

A run cut off by SIGINT, SIGTERM, the browser going away or a full disk still ends with its
events up to the cut and a manifest marked ``interrupted`` (:meth:`_Run.cut`); the signal, or
the full disk, then reaches the caller.
"""

from __future__ import annotations

import base64
import contextlib
import errno
import io
import json
import os
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from automium import corpus
from automium.artifacts.levels import not_recorded
from automium.capabilities import find
from automium.contracts import (
    EventType,
    EvidenceLevel,
    FillStep,
    Journey,
    PlannerReference,
    ReplayLane,
    RunSubmissionInput,
    Step,
    Verdict,
    to_document,
)
from automium.defaults import ACTION_TIMEOUT_MS
from automium.execution import actions, video
from automium.execution.contexts import loopback_context
from automium.execution.cutoff import WORKER_ID, cause_of, write_cut_off
from automium.execution.evidence import DiskFull, Interrupted, RunDir
from automium.execution.navigation import watched
from automium.execution.places import RefusedPlace, Routes
from automium.execution.replay import Replay
from automium.execution.snapshots import parse_aria, semantic_snapshot
from automium.execution.workers import stopped_by
from automium.hosting import AppServer, Fault
from automium.hosting.bundles import secret
from automium.journeys.branches import Branch, guard_caption, starting_at
from automium.journeys.checked import CheckedJourney, checked_journey
from automium.journeys.checking import check_journey
from automium.journeys.node_captions import step_label
from automium.journeys.page_checks import Visit
from automium.journeys.whole_numbers import whole_numbers
from automium.runs.submission import run_id_for
from automium.runs.timeline import ALLOWED_INTENTS, decision_of

if TYPE_CHECKING:
    from playwright.sync_api import (
        Browser,
        BrowserContext,
        ConsoleMessage,
        Dialog,
        Frame,
        Locator,
        Page,
    )

Json = dict[str, Any]
L = ReplayLane

PLANNER = {"id": "scripted-journey", "vendor": "scripted", "model": "journey"}
"""The planner of a run: the journey itself, carried out as written."""


# Chromium's capture of the viewport, encoded for speed (a faster deflate, a larger file).
_FAST_PNG = {"format": "png", "optimizeForSpeed": True}


@dataclass(frozen=True)
class Options:
    out: Path | None = None  # where run directories go; default: the fixture's artifactRoot
    timeout_ms: int = ACTION_TIMEOUT_MS  # each action's and each assertion's bound
    faults: tuple[Fault, ...] = ()
    repetition: int = 1
    # A failed run's video is encoded from its trace; measuring compile against hundreds of
    # failing runs goes without, as encoding costs more than the run.
    video: bool = True
    overwrite: bool = False  # an earlier run's directory of the same id may be replaced
    connected: bool = False  # the browser is a remote one, reached with --connect
    evidence: EvidenceLevel = EvidenceLevel.FULL


@dataclass
class Outcome:
    run_id: str
    journey: Journey
    verdict: Verdict
    retry_count: int
    events: list[Json]
    manifest: Json
    manifest_input: Json
    folder: Path
    latency_ms: int
    steps_completed: int
    failing_step: str | None
    failing_lane: str | None
    summary: Json = field(default_factory=dict)
    summary_line: str = ""

    @property
    def summary_input(self) -> Json:
        """What ``automium_get_replay_summary`` takes for this run."""
        return {
            "runId": self.run_id,
            "verdict": self.verdict.value,
            "retryCount": self.retry_count,
            "artifactManifestRef": f"artifacts:run/{self.run_id}",
            "events": self.events,
        }


def base_run_id(checked: CheckedJourney) -> str:
    """The same journey, planner and profile always give the same base id."""
    journey = checked.model
    fixture = corpus.get_fixture(journey.fixture_id, journey.app_id)
    request = RunSubmissionInput(
        app_id=journey.app_id,
        fixture_id=journey.fixture_id,
        journey_id=journey.id,
        planner=PlannerReference(**PLANNER),
        environment_profile_id=fixture.environment_profile_id,
    )
    return run_id_for(checked, request)


def run_folder(document: Json, out: Path | None, repetition: int) -> Path:
    """Where the run of a journey compile accepts goes: ``<out>/<run id>``."""
    checked = checked_journey(document)
    journey = checked.model
    if out is None:
        out = Path.cwd() / corpus.get_fixture(journey.fixture_id, journey.app_id).artifact_root
    return out / f"{base_run_id(checked)}.{repetition}"


def run_journey(
    document: Json, browser: Browser, options: Options, *, refused_too: bool = False
) -> Outcome:
    """Compile ``document`` (raises ``AutomiumError`` when compile refuses it), then run it.

    ``refused_too``, for the tests that measure compile against real runs only: a journey
    compile refuses runs anyway, on the pages its walk knows (a step past them acts on its
    target as written), so a false refusal shows up as a run that passes. It must still be
    a ``journey.v1`` document of a known app and fixture."""
    document = whole_numbers(document)
    if not refused_too:
        find("automium_compile_journey").answer(document)  # refused exactly as compile refuses
        return _Run(document, checked_journey(document), browser, options).run()
    checked = check_journey(document)
    walk = checked.walk
    if walk is None:
        raise ValueError("a journey of an unknown app or fixture cannot run")
    # A journey that uses another runs that one's steps first.
    runs = checked.expansion.document if checked.expansion is not None else document
    known = {v.step_id: v for v in walk.visits}
    walk = replace(
        walk,
        visits=[
            known.get(s["id"], Visit(i, s["id"], None, None, None))
            for i, s in enumerate(runs["steps"])
        ],
    )
    return _Run(document, CheckedJourney(runs, walk), browser, options, refused=True).run()


class _Run:
    def __init__(
        self,
        document: Json,
        checked: CheckedJourney,
        browser: Browser,
        options: Options,
        *,
        refused: bool = False,
    ) -> None:
        journey = checked.model
        self.document = document
        self.journey = journey
        self.visits: Sequence[Visit] = tuple(checked.walk.visits)
        # The journey as it runs (a used journey's steps first): its branches, by first step.
        self.opening = starting_at(checked.document["steps"])
        self.branches: list[Json] = []
        self.browser = browser
        self.options = options
        self.refused = refused
        self.fixture = corpus.get_fixture(journey.fixture_id, journey.app_id)
        self.profile = corpus.get_environment_profile(self.fixture.environment_profile_id)
        self.routes = Routes.of(self.fixture)
        self.titles = {r.id: r.title for r in corpus.get_app(journey.app_id).routes}
        self.run_id = f"{base_run_id(checked)}.{options.repetition}"
        out = options.out if options.out is not None else Path.cwd() / self.fixture.artifact_root
        self.dir = RunDir(
            out,
            self.run_id,
            self.fixture.artifact_root,
            overwrite=options.overwrite,
            evidence_level=options.evidence.value,
        )
        self.replay = Replay(self.run_id)
        refs = [s.secret_ref for s in journey.steps if isinstance(s, FillStep) and s.secret_ref]
        self.secrets = [secret(journey.app_id, ref) for ref in refs]
        self.step: str | None = None
        self.console: list[str] = []
        self.retries = 0
        self.trace_parts = 0
        self.tracing = options.evidence is not EvidenceLevel.VERDICT
        self.tracing_paused = False
        self.secret_document = 0  # the document of the main frame a secret was last typed in
        self.snapshot_nodes = 0
        self.transcript: list[Json] = []
        self.masks: list[Locator] = []  # the fields a secret was typed into
        self.interruption: Json | None = None
        self.closed = False

    # -- the run ----------------------------------------------------------------------------

    def run(self) -> Outcome:
        self.dir.create()
        try:
            return self._run()
        except (KeyboardInterrupt, Interrupted) as stop:
            self.cut(cause_of(stop))
            raise
        except OSError as error:
            if error.errno != errno.ENOSPC:
                raise
            self.cut("disk_full")
            manifest = (self.dir.folder / "manifest.json").is_file()
            raise DiskFull(self.dir.folder, len(self.dir.files()), manifest) from error

    def _run(self) -> Outcome:
        from playwright.sync_api import Error as PlaywrightError  # noqa: PLC0415

        faults = self.options.faults
        with AppServer(self.journey.app_id, self.journey.fixture_id, faults=faults) as server:
            self.base = server.url
            self.replay.emit(
                L.WORKER,
                EventType.WORKER_LEASED,
                {"workerId": WORKER_ID, "environmentProfileId": self.profile.id},
            )
            context = self.context = self._context()
            try:
                page = context.new_page()
                self.watch = watched(page)
                self._listen(page)
                self.replay.emit(
                    L.RUNTIME, EventType.FIXTURE_APPLIED, {"fixtureId": self.fixture.id}
                )
                verdict, completed, failure = self._steps(page)
                self.step = None
                if self._keeps(verdict):
                    self._final_page(page)
            except PlaywrightError as error:
                if "ENOSPC" in str(error):  # the browser could not write a file
                    raise OSError(errno.ENOSPC, "No space left on device") from error
                # The browser or the page went away under a step: the run errored.
                verdict, completed, failure = self._crashed(error)
            except BaseException:  # cut off (cut() writes what is left) or a bug
                with contextlib.suppress(Exception):
                    self._close(context)
                raise
            if self.interruption is None:
                self._close(context, keep=self._keeps(verdict))
            else:  # the browser is gone: only what it wrote before can be kept
                with contextlib.suppress(Exception):
                    self._close(context)
        return self._finish(verdict, completed, failure)

    def _crashed(self, error: Exception) -> tuple[Verdict, int, tuple[str, str] | None]:
        step = self.step
        text = str(error)
        reason = text.splitlines()[0][:300] if text else "crashed"
        if not self.browser.is_connected() or "browser has been closed" in text.lower():
            # Closed by the pool of workers when a signal stopped them, or gone on its own.
            if (signalled := stopped_by(self.browser)) is not None:
                reason = f"interrupted: {signalled}"
            cause = signalled or "browser_closed"
            self.interruption = {"cause": cause, **({"stepId": step} if step else {})}
        self.replay.emit(L.RUNTIME, EventType.RUNTIME_CRASHED, {"reason": reason}, step=step)
        done = {e.get("stepId") for e in self.replay.events}
        completed = sum(s.id in done and s.id != step for s in self.journey.steps)
        return Verdict.ERRORED, completed, (step, "runtime") if step else None

    def _context(self) -> BrowserContext:
        har = (
            {"record_har_path": self.dir.path("network.har"), "record_har_content": "omit"}
            if self.tracing
            else {}
        )
        context = loopback_context(
            self.browser, self.profile, connected=self.options.connected, **har
        )
        context.set_default_timeout(self.options.timeout_ms)
        if self.tracing:
            context.tracing.start(screenshots=True, snapshots=True, sources=False)
        return context

    def _listen(self, page: Page) -> None:
        page.on("framenavigated", lambda frame: self._navigated(page, frame))
        page.on("console", self._console)
        page.on("pageerror", lambda error: self._page_error(str(error)))
        page.on("dialog", self._dialog)
        page.on("crash", lambda _page: self._page_error("the page crashed"))

    def _steps(self, page: Page) -> tuple[Verdict, int, tuple[str, str] | None]:
        completed = 0
        skip_until = -1
        for index, (step, visit) in enumerate(zip(self.journey.steps, self.visits, strict=True)):
            self.step = step.id
            if index in self.opening and not self._branch(page, self.opening[index], visit):
                skip_until = self.opening[index].end
            if index < skip_until:
                continue  # the guard failed: the branch's steps and assertions are skipped
            outcome = self._step(page, step, visit)
            if self._captures(failing=outcome is not None):
                self._capture(page, step.id)
            else:
                self._resume_tracing()
            if outcome is not None:
                return outcome, completed, (step.id, self._failing_lane())
            completed += 1
        return Verdict.PASSED, completed, None

    def _branch(self, page: Page, branch: Branch, visit: Visit) -> bool:
        """Evaluate a branch's guard on the real page; record the branch taken."""
        step = self.journey.steps[branch.start]
        view = visit.before.view if visit.before is not None else None
        holds = actions.guard_holds(page, branch.guard, view, self.routes)
        taken = "holds" if holds else "fails"
        self.branches.append({"stepId": step.id, "branch": taken})
        self.replay.emit(
            L.EXECUTOR,
            EventType.BRANCH_TAKEN,
            {
                "guard": guard_caption(branch.guard),
                "branch": taken,
                "steps": branch.end - branch.start,
            },
            step=step.id,
        )
        return holds

    def _step(self, page: Page, step: Step, visit: Visit) -> Verdict | None:
        attempts = self.journey.recovery.max_attempts
        for attempt in range(1, attempts + 1):
            if attempt > 1:
                self.retries += 1
                self._recover(page, visit)
            self._decide(page, step, attempt)
            failed = self._act(page, step, visit, attempt)
            if failed is None:
                break
        else:
            return self._exhausted(timed_out=failed == EventType.ACTION_TIMED_OUT)
        return self._assertions(page, step, visit)

    def _act(self, page: Page, step: Step, visit: Visit, attempt: int) -> str | None:
        secret_value = (
            secret(self.journey.app_id, step.secret_ref)
            if isinstance(step, FillStep) and step.secret_ref
            else None
        )
        if secret_value is not None:
            self._pause_tracing()
            self.secret_document = self.watch.documents
        result = actions.perform(
            page, step, visit, self.routes, self.base, secret_value, self.options.timeout_ms
        )
        if secret_value is not None:
            field = actions.field_of(page, step, visit)
            if field is not None:
                self.masks.append(field)
        payload = {
            "intent": step.intent,
            "attempt": attempt,
            "locator": result.locator,
            "durationMs": result.duration_ms,
        }
        if result.error is None:
            self.replay.emit(
                L.EXECUTOR,
                EventType.ACTION_PERFORMED,
                {**payload, "result": result.result},
                step=step.id,
            )
            return None
        kind = EventType.ACTION_TIMED_OUT if result.timed_out else EventType.ACTION_FAILED
        extra = {"timeoutMs": self.options.timeout_ms} if result.timed_out else {}
        self.replay.emit(
            L.EXECUTOR,
            kind,
            {**payload, **extra, "reason": result.reason, "error": result.error},
            step=step.id,
        )
        return kind

    def _decide(self, page: Page, step: Step, attempt: int) -> None:
        matched = self.routes.match(page.url)
        request = {
            "goal": self.journey.goal[:200],
            "route": matched[0] if matched else None,
            "allowedIntents": ALLOWED_INTENTS,
            "snapshotNodes": self.snapshot_nodes,
            "attempt": attempt,
        }
        self.replay.emit(L.PLANNER, EventType.DECISION_REQUESTED, request, step=step.id)
        decision = {
            **decision_of(step, PLANNER["id"], step_label(to_document(step))),
            "inputTokens": 0,
            "outputTokens": 0,
            "latencyMs": 0,
        }
        self.replay.emit(L.PLANNER, EventType.DECISION_MADE, decision, step=step.id)
        self.transcript.append({"stepId": step.id, "request": request, "decision": decision})

    def _assertions(self, page: Page, step: Step, visit: Visit) -> Verdict | None:
        for assertion in (a for a in self.journey.assertions if a.after_step == step.id):
            for attempt in range(1, self.journey.recovery.max_attempts + 1):
                if attempt > 1:
                    self.retries += 1
                    self._recover(page, visit, restart=False)
                error = actions.check(page, assertion, visit, self.routes, self.options.timeout_ms)
                if error is None:
                    self.replay.emit(
                        L.ASSERTION,
                        EventType.ASSERTION_PASSED,
                        {"assertionId": assertion.id, "kind": assertion.kind, "attempt": attempt},
                        step=step.id,
                    )
                    break
                self.replay.emit(
                    L.ASSERTION,
                    EventType.ASSERTION_FAILED,
                    {
                        "assertionId": assertion.id,
                        "kind": assertion.kind,
                        "reason": error,
                        "attempt": attempt,
                    },
                    step=step.id,
                )
            else:
                return self._exhausted(timed_out=False)
        return None

    def _recover(self, page: Page, visit: Visit, *, restart: bool = True) -> None:
        """The journey's strategies, in order, before another attempt."""
        for strategy in self.journey.recovery.strategies:
            name = strategy.value
            if name == "dismiss_dialog":
                actions.dismiss_dialog(page)
            elif name == "refresh_snapshot":
                self._snapshot_nodes(page)
            elif name == "restart_from_route" and restart and visit.before is not None:
                before = visit.before
                path = self.routes.path(before.route, before.view.entity)
                page.goto(self.base + path, wait_until="load")

    def _exhausted(self, *, timed_out: bool) -> Verdict:
        if self.journey.recovery.on_exhausted.value == "mark_blocked":
            return Verdict.BLOCKED
        return Verdict.ERRORED if timed_out else Verdict.FAILED

    def _failing_lane(self) -> str:
        failing = {EventType.ACTION_FAILED, EventType.ACTION_TIMED_OUT, EventType.ASSERTION_FAILED}
        last = next(e for e in reversed(self.replay.events) if e["type"] in failing)
        return str(last["lane"])

    # -- runtime lane -----------------------------------------------------------------------

    def _navigated(self, page: Page, frame: Frame) -> None:
        if frame != page.main_frame or not frame.url.startswith(self.base):
            return
        matched = self.routes.match(frame.url)
        self.replay.emit(
            L.RUNTIME,
            EventType.PAGE_LOADED,
            {
                "route": matched[0] if matched else "unknown",
                "entity": matched[1] if matched else None,
                "path": frame.url.removeprefix(self.base),
            },
            step=self.step,
        )

    def _console(self, message: ConsoleMessage) -> None:
        text = self._masked(message.text)
        self.console.append(f"[{message.type}] {text}")
        if message.type == "error":
            self.replay.emit(
                L.RUNTIME,
                EventType.PAGE_CHANGED,
                {"change": f"console error: {text}"},
                step=self.step,
            )

    def _page_error(self, text: str) -> None:
        text = self._masked(text)
        self.console.append(f"[pageerror] {text}")
        self.replay.emit(
            L.RUNTIME, EventType.PAGE_CHANGED, {"change": f"uncaught error: {text}"}, step=self.step
        )

    def _dialog(self, dialog: Dialog) -> None:
        self.replay.emit(
            L.RUNTIME,
            EventType.PAGE_CHANGED,
            {"change": f"{dialog.type} dialog: {self._masked(dialog.message)}"},
            step=self.step,
        )
        dialog.accept()

    # -- evidence ---------------------------------------------------------------------------

    def _captures(self, *, failing: bool) -> bool:
        """Whether a step's screenshot and semantic snapshot are taken."""
        level = self.options.evidence
        return level is EvidenceLevel.FULL or (failing and level is EvidenceLevel.ON_FAILURE)

    def _keeps(self, verdict: Verdict) -> bool:
        """Whether the run keeps its trace, HAR and final DOM."""
        return not not_recorded(self.options.evidence, verdict)

    def _pause_tracing(self) -> None:
        """Stop recording before a secret is typed: the chunk so far is kept."""
        if self.tracing_paused or not self.tracing:
            return
        self.trace_parts += 1
        self.context.tracing.stop_chunk(path=self.dir.path(f"trace/part-{self.trace_parts}.zip"))
        self.tracing_paused = True

    def _secret_gone(self) -> bool:
        """Whether the main frame has loaded a new document since a secret was last typed:
        the fields that held it went with the old one. Not a same-document navigation (a
        history or fragment change keeps the field), nor the old document restored from the
        back-forward cache (:class:`.navigation.NavigationWatch`)."""
        return self.watch.documents > self.secret_document

    def _resume_tracing(self) -> None:
        if self.tracing_paused and self._secret_gone():
            self.context.tracing.start_chunk()
            self.tracing_paused = False

    def _capture(self, page: Page, step_id: str) -> None:
        from playwright.sync_api import Error as PlaywrightError  # noqa: PLC0415

        index = len({e.get("stepId") for e in self.dir.entries if e["kind"] == "screenshot"})
        stem = f"{index + 1:02d}-{step_id}"
        for attempt in range(3):
            try:
                image = self._screenshot(page)
                snapshot = self._snapshot(page)  # while the browser takes the screenshot
                png = image()
                break
            except PlaywrightError:
                # A navigation the step started (Enter submitting a form) can begin after
                # the step returned; the capture met the page mid-load. Again, loaded.
                if attempt == 2:
                    raise
                page.wait_for_load_state("load")
        shot = f"screenshots/{stem}.png"
        self.dir.write(shot, png)  # through the run directory's writer, as every file
        self._artifact("screenshot", shot, step_id)
        path = f"snapshots/{stem}.json"
        self.dir.write(path, json.dumps(snapshot, ensure_ascii=False, indent=1).encode())
        self._artifact("semantic-snapshot", path, step_id)
        self._resume_tracing()

    def _screenshot(self, page: Page) -> Callable[[], bytes]:
        """What waits for the page as a PNG. While a field holds a typed secret, Playwright's
        screenshot blacks it out (its text is already transparent), there and then.
        Otherwise Chromium's own capture, told to encode for speed, is started: the same
        pixels, 33 ms against Playwright's 56 (median of 20 on a shop-lite page at
        1280x720), and taken while the caller reads the semantic snapshot."""
        if self.masks and self._secret_gone():
            self.masks = []
        if self.masks:
            masked = page.screenshot(mask=self.masks, mask_color="#000000")
            return lambda: masked
        captured = self.watch.start("Page.captureScreenshot", _FAST_PNG)
        return lambda: base64.b64decode(captured()["data"])

    def _snapshot(self, page: Page) -> Json:
        nodes = parse_aria(page.locator("body").aria_snapshot())
        frames = [f for f in page.frames if f != page.main_frame]
        frame_nodes = [parse_aria(f.locator("body").aria_snapshot()) for f in frames]
        _graft_frames(nodes, frame_nodes)
        matched = self.routes.match(page.url)
        route = matched[0] if matched else self.routes.paths[0][0]
        viewport = {"width": self.profile.viewport.width, "height": self.profile.viewport.height}
        title = self.titles.get(route, route)
        document = semantic_snapshot(route, viewport, title, nodes, self.secrets)
        self.snapshot_nodes = _count(document["root"]) - 1
        return document

    def _snapshot_nodes(self, page: Page) -> None:
        self._snapshot(page)

    def _final_page(self, page: Page) -> None:
        html = self._masked(page.content())
        self.dir.write("dom/final.html", html.encode())
        self._artifact("dom-snapshot", "dom/final.html")

    def _close(self, context: BrowserContext, *, keep: bool = True) -> None:
        """End tracing and the context. A run that does not ``keep`` its evidence (passed,
        at ``on-failure``) leaves no trace and no HAR: the chunks a secret's fill cut and
        the HAR the context writes as it closes are deleted."""
        self.closed = True
        if not self.browser.is_connected():
            return  # the browser died under the run: its trace and HAR went with it
        try:
            try:
                self._stop_tracing(context, keep=keep)
            finally:
                context.close()
        finally:
            folder = self.dir.folder
            if not keep:
                for left in [*_traces(folder), self.dir.path("network.har")]:
                    left.unlink(missing_ok=True)
            else:  # whatever the browser wrote, it keeps no secret
                _redact_har(self.dir.path("network.har"), self.secrets)
                for trace in _traces(folder):
                    _scrub_zip(trace, self.secrets)

    def _stop_tracing(self, context: BrowserContext, *, keep: bool) -> None:
        if not self.tracing:
            return
        if self.tracing_paused or not keep:
            context.tracing.stop()  # nothing since the last chunk is to be kept
            return
        self.trace_parts += 1
        part = self.trace_parts
        context.tracing.stop(
            path=self.dir.path("trace.zip" if part == 1 else f"trace/part-{part}.zip")
        )

    def _finish(self, verdict: Verdict, completed: int, failure: tuple[str, str] | None) -> Outcome:
        for kind, path in self._end_files(verdict):
            self._artifact(kind, path)
        self.replay.emit(
            L.WORKER, EventType.RUN_FINISHED, {"retryCount": self.retries}, verdict=verdict
        )
        self.replay.emit(L.WORKER, EventType.WORKER_RELEASED, {"workerId": WORKER_ID})
        latency = self.replay.now_ms()
        self.dir.write("replay.jsonl", self._masked(self.replay.ndjson().decode()).encode())
        self.dir.record("replay-log", "replay.jsonl")
        manifest_input = self.dir.manifest_input(verdict.value, self.retries, self.document)
        # A manifest holds its journey, which must compile: a refused one's run has none.
        manifest = (
            {} if self.refused else self.dir.manifest(verdict.value, self.retries, self.document)
        )
        if manifest and self.branches:
            manifest["branches"] = self.branches
        if manifest and self.interruption is not None:
            manifest["interrupted"] = self.interruption
        if manifest:
            self.dir.write("manifest.json", json.dumps(manifest, indent=1).encode())
        outcome = Outcome(
            run_id=self.run_id,
            journey=self.journey,
            verdict=verdict,
            retry_count=self.retries,
            events=self.replay.events,
            manifest=manifest,
            manifest_input=manifest_input,
            folder=self.dir.folder,
            latency_ms=latency,
            steps_completed=completed,
            failing_step=failure[0] if failure else None,
            failing_lane=failure[1] if failure else None,
        )
        line, summary = find("automium_get_replay_summary").answer(outcome.summary_input)
        outcome.summary, outcome.summary_line = summary, line
        return outcome

    def cut(self, cause: str) -> None:
        """End a run cut off by ``cause``: what the browser still gives is saved, then the
        events up to the cut and a manifest marked ``interrupted`` (:mod:`.cutoff`); the
        signal, or the full disk, then reaches the caller."""
        if not self.closed:
            with contextlib.suppress(Exception):  # the browser may be gone, or going
                self._close(self.context)
        self.interruption = {"cause": cause, **({"stepId": self.step} if self.step else {})}
        write_cut_off(
            self.dir, self.replay, self.interruption, self.retries, self.document, self._masked
        )

    def _end_files(self, verdict: Verdict) -> list[tuple[str, str]]:
        """Write the logs; the kinds and paths of every file the run ends with, replay log
        aside (it holds these events, so it is written last)."""
        self.dir.write("console.log", "".join(line + "\n" for line in self.console).encode())
        transcript = "".join(json.dumps(t, ensure_ascii=False) + "\n" for t in self.transcript)
        self.dir.write("planner-transcript.jsonl", self._masked(transcript).encode())
        files = [("console-log", "console.log"), ("planner-transcript", "planner-transcript.jsonl")]
        if self.dir.path("network.har").is_file():  # not when the browser went away
            files.append(("network-har", "network.har"))
        folder = self.dir.folder
        traces = _traces(folder)
        files += [("trace", p.relative_to(folder).as_posix()) for p in traces]
        if (
            verdict is Verdict.FAILED
            and self.options.video
            and video.encode(traces, self.dir.path("video.webm"))
        ):
            files.append(("video", "video.webm"))
        return files

    def _artifact(self, kind: str, path: str, step_id: str | None = None) -> None:
        entry = self.dir.record(kind, path, step_id)
        self.replay.emit(
            L.ARTIFACT,
            EventType.ARTIFACT_CAPTURED,
            {"kind": kind, "path": path, "sizeBytes": entry["sizeBytes"]},
            step=step_id,
        )

    def _masked(self, text: str) -> str:
        for value in self.secrets:
            text = text.replace(value, "•" * len(value))
        return text


def _traces(folder: Path) -> list[Path]:
    return sorted(p for p in [folder / "trace.zip", *folder.glob("trace/*.zip")] if p.is_file())


def _graft_frames(nodes: list[Json], frames: list[list[Json]]) -> None:
    """Put each frame's snapshot under the page's iframe nodes, in document order."""
    pending = list(frames)

    def walk(items: list[Json]) -> None:
        for node in items:
            if node["role"] == "iframe" and pending:
                node["children"] = pending.pop(0)
            elif node.get("children"):
                walk(node["children"])

    walk(nodes)


def _count(node: Json) -> int:
    return 1 + sum(_count(c) for c in node.get("children", ()))


def _scrub_zip(path: Path, secrets: Sequence[str]) -> None:
    """A trace records network bodies whole (a sign-in request ends after tracing resumed):
    every member is rewritten with each secret, plain or URL-encoded, masked."""
    if not secrets:
        return
    forms = {form.encode() for value in secrets for form in (value, quote(value, safe=""))}
    with zipfile.ZipFile(path) as archive:
        members = [(info, archive.read(info)) for info in archive.infolist()]
    scrubbed = io.BytesIO()
    with zipfile.ZipFile(scrubbed, "w", zipfile.ZIP_DEFLATED) as archive:
        for info, original in members:
            data = original
            for form in forms:
                data = data.replace(form, b"*" * len(form))
            archive.writestr(info, data)
    flags = os.O_WRONLY | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
    with os.fdopen(os.open(path, flags), "wb") as handle:
        handle.write(scrubbed.getvalue())


def _redact_har(path: Path, secrets: Sequence[str]) -> None:
    """A HAR records request bodies (a sign-in's password): they are dropped."""
    if not path.is_file():
        return
    har = json.loads(path.read_text("utf-8"))
    for entry in har.get("log", {}).get("entries", []):
        posted = entry.get("request", {}).get("postData")
        if posted is not None:
            posted["text"] = ""
            posted.pop("params", None)
            posted["comment"] = "request body not recorded"
    text = json.dumps(har, ensure_ascii=False, indent=1)
    for value in secrets:
        text = text.replace(value, "•" * len(value))
    flags = os.O_WRONLY | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
    with os.fdopen(os.open(path, flags), "w", encoding="utf-8") as handle:
        handle.write(text)


__all__ = [
    "PLANNER",
    "Options",
    "Outcome",
    "RefusedPlace",
    "base_run_id",
    "run_folder",
    "run_journey",
]
