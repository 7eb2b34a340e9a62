"""One planner trial: a planner drives the journey's app in Chromium, judged by outcome.

The fixture is reset (a fresh app server from its seeds, a fresh browser context) and the
page opens at the journey's first route. Then, each turn, the page's ARIA snapshot becomes
a ``semantic-snapshot.v1`` document (secrets masked), a ``PlannerRequest`` goes to the
planner with the goal, the allowed intents, the credentials and files it may name by
reference, and the history; its ``PlannerDecision`` is carried out with the executor's own
actions (:mod:`automium.execution.actions`), unless it is denied (:func:`.protocol.denial`),
which goes in the history as ``denied``. The trial ends when the planner finishes, says the
goal is infeasible, breaks the protocol, or runs out of its step budget. It passes when every
success check of the journey holds on the final page (WebArena's way: the outcome, not the
steps). Every decision is on the planner lane of ``replay-event.v1``; the transcript (each
request and answer, as sent and read) is the run's ``planner-transcript`` artifact.

A secret's value is typed by the runtime, never sent: a request offers ``secretRefs``, a
decision names one, and the page's fields show it masked in every snapshot.
"""

from __future__ import annotations

import contextlib
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import TypeAdapter, ValidationError

from automium import corpus
from automium.contracts import (
    DecisionKind,
    DecisionOutcome,
    EventType,
    FailureClass,
    Intent,
    PlannerDecision,
    PlannerReference,
    ReplayLane,
    RunSubmissionInput,
    Step,
    Verdict,
)
from automium.execution import actions
from automium.execution.contexts import loopback_context
from automium.execution.cutoff import WORKER_ID, cause_of, write_cut_off
from automium.execution.evidence import Interrupted, RunDir
from automium.execution.places import RefusedPlace, Routes
from automium.execution.quiet import QUIET_MS, RequestWatch
from automium.execution.replay import Replay
from automium.execution.snapshots import parse_aria, semantic_snapshot
from automium.execution.workers import Stopped, stopped_by
from automium.hosting import AppServer
from automium.hosting.bundles import secret
from automium.journeys.checked import checked_journey
from automium.journeys.findings import Visit
from automium.planning import protocol
from automium.planning.protocol import PlannerBroke
from automium.runs.submission import run_id_for

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

Json = dict[str, Any]
L = ReplayLane
E = EventType
_NO_VISIT = Visit(0, "final", None, None, None)
_STEP: TypeAdapter[Step] = TypeAdapter(Step)
_SNAPSHOT_TRIES = 3  # reading a page that is between two documents
_LAST_LOOK_MS = 50  # a check's bound once the checks' time is spent (0 would be none)


class Planner(Protocol):
    reference: Json

    def start(self, journey: Json) -> None: ...
    def decide(self, request: Json) -> Json: ...
    def close(self) -> None: ...


@dataclass(frozen=True)
class TrialOptions:
    out: Path | None = None
    timeout_ms: int = 5000  # each action's bound
    check_timeout_ms: int = 2000  # each success check's bound, on the final page
    max_steps: int | None = None  # default: twice the journey's steps, plus four
    repetition: int = 1
    connected: bool = False  # the browser is a remote one, reached with --connect


@dataclass
class TrialOutcome:
    run_id: str
    journey_id: str
    app_id: str
    fixture_id: str
    planner_id: str
    verdict: Verdict
    failure_class: FailureClass | None
    reason: str
    ended_by: str  # finish, infeasible, budget, planner_broke, runtime_crashed
    steps_used: int
    denied: int
    input_tokens: int
    output_tokens: int
    decision_latency_ms: list[int]  # the planner's round trip, per decision
    decision_cost_ms: list[float]  # the runtime's cost per decision: snapshot + round trip
    reset_ms: float
    latency_ms: int
    folder: Path
    manifest: Json = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        return self.verdict is Verdict.PASSED

    @property
    def manifest_ref(self) -> str:
        return f"artifacts:run/{self.run_id}"


def run_trial(
    document: Json, planner: Planner, browser: Browser, options: TrialOptions
) -> TrialOutcome:
    """Run one trial of ``document`` (a journey compile accepts) driven by ``planner``."""
    return _Trial(document, planner, browser, options).run()


class _Trial:
    def __init__(
        self, document: Json, planner: Planner, browser: Browser, options: TrialOptions
    ) -> None:
        checked = checked_journey(document)
        journey = self.journey = checked.model
        self.document = document
        self.planner = planner
        self.browser = browser
        self.options = options
        self.fixture = corpus.get_fixture(journey.fixture_id, journey.app_id)
        self.profile = corpus.get_environment_profile(self.fixture.environment_profile_id)
        self.routes = Routes.of(self.fixture)
        self.titles = {r.id: r.title for r in corpus.get_app(journey.app_id).routes}
        request = RunSubmissionInput(
            app_id=journey.app_id,
            fixture_id=journey.fixture_id,
            journey_id=journey.id,
            planner=PlannerReference(**planner.reference),
            environment_profile_id=self.fixture.environment_profile_id,
        )
        self.run_id = f"{run_id_for(checked, request)}.{options.repetition}"
        out = options.out if options.out is not None else Path.cwd() / self.fixture.artifact_root
        self.dir = RunDir(out, self.run_id, self.fixture.artifact_root)
        self.replay = Replay(self.run_id)
        steps = [s for s in document["steps"] if isinstance(s, dict)]
        self.secret_refs = list(dict.fromkeys(s["secretRef"] for s in steps if "secretRef" in s))
        self.file_refs = list(dict.fromkeys(s["fileRef"] for s in steps if "fileRef" in s))
        self.secrets = [secret(journey.app_id, ref) for ref in self.secret_refs]
        self.budget = options.max_steps or 2 * len(steps) + 4
        self.history: list[Json] = []
        self.transcript: list[str] = []
        self.console: list[str] = []
        self.page_errors = 0
        self.latencies: list[int] = []
        self.costs: list[float] = []
        self.tokens = [0, 0]
        self.denied = 0
        self.reset_ms = 0.0

    # -- the trial --------------------------------------------------------------------------

    def run(self) -> TrialOutcome:
        self.dir.create()
        try:
            return self._run()
        except (KeyboardInterrupt, Interrupted, Stopped) as stop:
            # The planner's process is gone (closed as the trial unwound): what the trial
            # did up to the cut is kept, with a manifest marked interrupted.
            cause = stop.args[0] if isinstance(stop, Stopped) else cause_of(stop)
            self._cut({"cause": cause})
            raise

    def _run(self) -> TrialOutcome:
        from playwright.sync_api import Error as PlaywrightError  # noqa: PLC0415

        started = time.perf_counter()
        ended_by, reason = "budget", ""
        verdict: Verdict | None = None
        failure: FailureClass | None = None
        with AppServer(self.journey.app_id, self.journey.fixture_id) as server:
            self.base = server.url
            self.replay.emit(
                L.WORKER,
                E.WORKER_LEASED,
                {"workerId": WORKER_ID, "environmentProfileId": self.profile.id},
            )
            context = self._context()
            try:
                page = context.new_page()
                self._listen(page)
                self.requests = RequestWatch(page)
                page.goto(self.base + self._start_path(), wait_until="load")
                self.reset_ms = (time.perf_counter() - started) * 1000
                self.replay.emit(
                    L.RUNTIME,
                    E.FIXTURE_APPLIED,
                    {"fixtureId": self.fixture.id, "resetMs": round(self.reset_ms, 1)},
                )
                try:
                    self.planner.start(self.document)
                    ended_by, reason = self._turns(page)
                except PlannerBroke as broke:
                    if (cause := stopped_by(self.browser)) is not None:
                        raise Stopped(cause) from broke  # its process killed by the stop
                    ended_by, reason = "planner_broke", str(broke)
                    verdict, failure = Verdict.FAILED, FailureClass.PLANNER_ISSUE
                    self.replay.emit(
                        L.PLANNER, E.DECISION_REJECTED, {"reason": reason[:300], "broke": True}
                    )
                finally:
                    self.planner.close()
                if verdict is None:
                    verdict, failure, reason = self._judge(page, ended_by, reason)
                self._final_page(page)
            except PlaywrightError as error:
                if (cause := stopped_by(self.browser)) is not None:
                    raise Stopped(cause) from error  # the workers were stopped by a signal
                reason = str(error).splitlines()[0][:300] if str(error) else "crashed"
                self.replay.emit(L.RUNTIME, E.RUNTIME_CRASHED, {"reason": reason})
                ended_by, verdict, failure = (
                    "runtime_crashed",
                    Verdict.ERRORED,
                    FailureClass.RUNTIME_GAP,
                )
            finally:
                with contextlib.suppress(PlaywrightError):  # the browser may be gone
                    context.close()
        return self._finish(verdict, failure, ended_by, reason)

    def _cut(self, interruption: Json) -> None:
        with contextlib.suppress(OSError):  # a full disk: what fits is kept
            self._write_logs()
        write_cut_off(self.dir, self.replay, interruption, 0, self.document, self._masked)

    def _context(self) -> BrowserContext:
        context = loopback_context(self.browser, self.profile, connected=self.options.connected)
        context.set_default_timeout(self.options.timeout_ms)
        return context

    def _listen(self, page: Page) -> None:
        page.on("console", lambda m: self.console.append(f"[{m.type}] {self._masked(m.text)}"))
        page.on("pageerror", lambda error: self._page_error(str(error)))
        page.on("dialog", lambda dialog: dialog.accept())

    def _page_error(self, text: str) -> None:
        self.page_errors += 1
        self.console.append(f"[pageerror] {self._masked(text)}")

    def _start_path(self) -> str:
        """Where a trial starts: the journey's first route, as a task gives its start URL."""
        first = self.document["steps"][0]
        if first.get("intent") == Intent.NAVIGATE.value:
            return self.routes.path(first["route"], first.get("entity"))
        return self.routes.path(self.routes.paths[0][0], None)

    def _turns(self, page: Page) -> tuple[str, str]:
        for turn in range(1, self.budget + 1):
            began = time.perf_counter()
            snapshot = self._snapshot(page)
            sent = protocol.request(
                self.run_id,
                self.planner.reference,
                self.journey.goal,
                snapshot,
                self.secret_refs,
                self.file_refs,
                self.history,
                self.budget - turn + 1,
            )
            self.replay.emit(
                L.PLANNER,
                E.DECISION_REQUESTED,
                {
                    "goal": self.journey.goal[:200],
                    "route": snapshot["routeId"],
                    "allowedIntents": ",".join(sent["allowedIntents"]),
                    "snapshotNodes": _count(snapshot["root"]) - 1,
                    "attempt": turn,
                },
            )
            asked = time.perf_counter()
            try:
                raw = self.planner.decide(sent)
            finally:
                answered = time.perf_counter()
                self.latencies.append(int((answered - asked) * 1000))
                self.costs.append((answered - began) * 1000)
            self.transcript.append(json.dumps({"turn": turn, "request": sent}, ensure_ascii=False))
            self.transcript.append(json.dumps({"turn": turn, "decision": raw}, ensure_ascii=False))
            if (place := protocol.off_app(raw)) is not None:
                self.replay.emit(
                    L.RUNTIME,
                    E.POLICY_DENIED,
                    {"policy": "stay-on-app", "intent": Intent.NAVIGATE.value},
                    step=f"turn-{turn}",
                )
                why = f"{place!r} is not a route of the app: a planner stays on it"
                self._deny(Intent.NAVIGATE.value, why, turn, "stay-on-app")
                continue
            made = protocol.decision(raw)
            self.tokens[0] += made.token_usage.input
            self.tokens[1] += made.token_usage.output
            self.replay.emit(L.PLANNER, E.DECISION_MADE, _flat(made), step=f"turn-{turn}")
            kind = protocol.kind_of(made)
            if kind is not DecisionKind.ACT:
                return kind.value, made.rationale
            self._carry_out(page, made, sent, turn)
        return "budget", f"the step budget of {self.budget} decisions ran out"

    def _carry_out(self, page: Page, made: PlannerDecision, sent: Json, turn: int) -> None:
        assert made.intent is not None
        intent = made.intent.value
        why, element = protocol.denial(made, sent, [r for r, _ in self.routes.paths])
        if why:
            self._deny(intent, why, turn, "planner-adapter" if "intent" in why else "target")
            return
        document: Json = {"id": f"turn-{turn}", "intent": intent}
        if element is not None:
            target: Json = {"role": element.role, "name": element.name}
            document["target"] = target if element.nth is None else {**target, "nth": element.nth}
        fields = {
            "value": made.value,
            "secretRef": made.secret_ref,
            "route": made.route,
            "entity": self._entity(made.route) if made.route else None,
            "key": made.key,
            "fileRef": made.file_ref,
        }
        document |= {k: v for k, v in fields.items() if v is not None}
        if intent == Intent.FILL.value and made.secret_ref is not None:
            document.pop("value", None)
        if intent == Intent.SCROLL.value and element is None:
            document["direction"] = "down"
        try:
            step = _STEP.validate_python(document)
        except ValidationError as error:
            self._deny(intent, f"the decision is no step: {error.errors()[0]['msg']}", turn, "step")
            return
        where = (element.role, element.name, element.nth, element.frame) if element else None
        secret_value = secret(self.journey.app_id, made.secret_ref) if made.secret_ref else None
        requests_before = self.requests.started
        try:
            result = actions.perform(
                page,
                step,
                _NO_VISIT,
                self.routes,
                self.base,
                secret_value,
                self.options.timeout_ms,
                where=where,
            )
        except RefusedPlace as refused:
            self._deny(intent, str(refused), turn, "routes")
            return
        self.requests.settle(requests_before, self.options.timeout_ms)
        if not page.url.startswith(self.base):
            self.replay.emit(
                L.RUNTIME,
                E.POLICY_DENIED,
                {"policy": "stay-on-app", "intent": intent},
                step=step.id,
            )
            page.go_back(wait_until="load")
            self._history(intent, DecisionOutcome.DENIED, "the decision left the app")
            self.denied += 1
            return
        payload = {"intent": intent, "attempt": 1, "locator": result.locator}
        if result.error is None:
            self.replay.emit(
                L.EXECUTOR, E.ACTION_PERFORMED, {**payload, "result": result.result}, step=step.id
            )
            self._history(intent, DecisionOutcome.SUCCEEDED, "")
            return
        kind = E.ACTION_TIMED_OUT if result.timed_out else E.ACTION_FAILED
        self.replay.emit(
            L.EXECUTOR,
            kind,
            {**payload, "reason": result.reason, "error": result.error},
            step=step.id,
        )
        self._history(intent, DecisionOutcome.FAILED, f"{result.reason}: {result.error}")

    def _deny(self, intent: str, why: str, turn: int, policy: str) -> None:
        self.denied += 1
        self.replay.emit(
            L.PLANNER,
            E.DECISION_REJECTED,
            {"intent": intent, "reason": why, "policy": policy},
            step=f"turn-{turn}",
        )
        self._history(intent, DecisionOutcome.DENIED, why)

    def _history(self, intent: str, outcome: DecisionOutcome, reason: str) -> None:
        entry: Json = {"intent": intent, "outcome": outcome.value}
        if reason:
            entry["reason"] = self._masked(reason)[:2000]
        self.history.append(entry)

    def _entity(self, route: str | None) -> str | None:
        found = [e.id for e in self.fixture.entities if e.route == route]
        return found[0] if found else None

    # -- judging ----------------------------------------------------------------------------

    def _judge(
        self, page: Page, ended_by: str, reason: str
    ) -> tuple[Verdict, FailureClass | None, str]:
        checks = list(self.journey.success_checks or ())
        failed = []
        # One bound for all the checks: the final page has had its time once the first
        # check waited it out, and a failing trial is not charged a bound per check.
        deadline = time.monotonic() + self.options.check_timeout_ms / 1000
        for given in checks:
            check = getattr(given, "root", given)
            left_ms = max(int((deadline - time.monotonic()) * 1000), _LAST_LOOK_MS)
            error = actions.check(page, check, _NO_VISIT, self.routes, left_ms)
            if error is None:
                self.replay.emit(
                    L.ASSERTION, E.ASSERTION_PASSED, {"assertionId": check.id, "kind": check.kind}
                )
                continue
            failed.append(check.id)
            self.replay.emit(
                L.ASSERTION,
                E.ASSERTION_FAILED,
                {"assertionId": check.id, "kind": check.kind, "reason": error, "attempt": 1},
            )
        if ended_by == DecisionKind.INFEASIBLE.value:
            return Verdict.FAILED, FailureClass.PLANNER_ISSUE, "the planner said infeasible"
        if not checks:
            return Verdict.FAILED, FailureClass.FIXTURE_ISSUE, "the journey has no successChecks"
        if not failed:
            return Verdict.PASSED, None, reason
        why = f"success checks failed: {', '.join(failed)} ({ended_by})"
        return Verdict.FAILED, self._failure_class(), why

    def _failure_class(self) -> FailureClass:
        """What a failed outcome points to, from the trial's own evidence."""
        if self.page_errors:
            return FailureClass.PRODUCT_ISSUE
        if self.history and self.history[-1]["outcome"] == DecisionOutcome.DENIED.value:
            return FailureClass.POLICY_DENIAL
        if self.history and self.history[-1].get("reason", "").startswith("error:"):
            return FailureClass.RUNTIME_GAP
        return FailureClass.PLANNER_ISSUE

    # -- evidence ---------------------------------------------------------------------------

    def _snapshot(self, page: Page) -> Json:
        from playwright.sync_api import Error as PlaywrightError  # noqa: PLC0415

        for _ in range(_SNAPSHOT_TRIES - 1):
            try:
                return self._snapshot_once(page)
            except PlaywrightError:
                # A frame detached or a document replaced while it was read: the page was
                # between two states, so read it again once it has moved on.
                page.wait_for_timeout(QUIET_MS)
        return self._snapshot_once(page)

    def _snapshot_once(self, page: Page) -> Json:
        nodes = parse_aria(page.locator("body").aria_snapshot())
        frames = [f for f in page.frames if f != page.main_frame]
        pending = [
            (
                f.frame_element().get_attribute("title") or "",
                parse_aria(f.locator("body").aria_snapshot()),
            )
            for f in frames
        ]

        def graft(items: list[Json]) -> None:
            for node in items:
                if node["role"] == "iframe" and pending:
                    # The ARIA snapshot names no iframe; its title is how a target finds it.
                    title, node["children"] = pending.pop(0)
                    node["name"] = node["name"] or title
                elif node.get("children"):
                    graft(node["children"])

        graft(nodes)
        matched = self.routes.match(page.url)
        route = matched[0] if matched else self.routes.paths[0][0]
        viewport = {"width": self.profile.viewport.width, "height": self.profile.viewport.height}
        return semantic_snapshot(
            route, viewport, self.titles.get(route, route), nodes, self.secrets
        )

    def _final_page(self, page: Page) -> None:
        page.screenshot(path=self.dir.path("screenshots/final.png"))
        self._artifact("screenshot", "screenshots/final.png")
        snapshot = json.dumps(self._snapshot(page), ensure_ascii=False, indent=1)
        self.dir.write("snapshots/final.json", snapshot.encode())
        self._artifact("semantic-snapshot", "snapshots/final.json")
        self.dir.write("dom/final.html", self._masked(page.content()).encode())
        self._artifact("dom-snapshot", "dom/final.html")

    def _finish(
        self, verdict: Verdict, failure: FailureClass | None, ended_by: str, reason: str
    ) -> TrialOutcome:
        self._write_logs()
        self._artifact("console-log", "console.log")
        self._artifact("planner-transcript", "planner-transcript.jsonl")
        self.replay.emit(L.WORKER, E.RUN_FINISHED, {"retryCount": 0}, verdict=verdict)
        self.replay.emit(L.WORKER, E.WORKER_RELEASED, {"workerId": WORKER_ID})
        latency = self.replay.now_ms()
        self.dir.write("replay.jsonl", self._masked(self.replay.ndjson().decode()).encode())
        self.dir.record("replay-log", "replay.jsonl")
        manifest = self.dir.manifest(verdict.value, 0, self.document)
        self.dir.write("manifest.json", json.dumps(manifest, indent=1).encode())
        return TrialOutcome(
            run_id=self.run_id,
            journey_id=self.journey.id,
            app_id=self.journey.app_id,
            fixture_id=self.journey.fixture_id,
            planner_id=self.planner.reference["id"],
            verdict=verdict,
            failure_class=failure,
            reason=reason,
            ended_by=ended_by,
            steps_used=len(self.history),
            denied=self.denied,
            input_tokens=self.tokens[0],
            output_tokens=self.tokens[1],
            decision_latency_ms=self.latencies,
            decision_cost_ms=self.costs,
            reset_ms=self.reset_ms,
            latency_ms=latency,
            folder=self.dir.folder,
            manifest=manifest,
        )

    def _write_logs(self) -> None:
        self.dir.write("console.log", "".join(line + "\n" for line in self.console).encode())
        transcript = "".join(line + "\n" for line in self.transcript)
        self.dir.write("planner-transcript.jsonl", self._masked(transcript).encode())

    def _artifact(self, kind: str, path: str) -> None:
        entry = self.dir.record(kind, path)
        self.replay.emit(
            L.ARTIFACT,
            E.ARTIFACT_CAPTURED,
            {"kind": kind, "path": path, "sizeBytes": entry["sizeBytes"]},
        )

    def _masked(self, text: str) -> str:
        for value in self.secrets:
            text = text.replace(value, "•" * len(value))
        return text


def _flat(made: PlannerDecision) -> Json:
    """A decision as a flat replay payload; a secret stays its reference."""
    target = getattr(made.target, "root", made.target)
    return {
        "plannerId": made.planner.id,
        "kind": protocol.kind_of(made).value,
        "intent": made.intent.value if made.intent is not None else None,
        "targetRole": getattr(target, "role", None),
        "targetName": getattr(target, "name", None),
        "targetNth": getattr(target, "nth", None),
        "targetRef": getattr(target, "ref", None),
        "value": made.value,
        "secretRef": made.secret_ref,
        "route": made.route,
        "key": made.key,
        "rationale": made.rationale[:200],
        "inputTokens": made.token_usage.input,
        "outputTokens": made.token_usage.output,
        "latencyMs": made.latency_ms,
    }


def _count(node: Json) -> int:
    return 1 + sum(_count(c) for c in node.get("children", ()))
