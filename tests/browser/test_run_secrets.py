"""No secret in any artifact: a signed-in run's every file, and every file in its traces, is
searched for the seed's secret values."""

from __future__ import annotations

import base64
import zipfile
from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.sync_api import Browser

from automium import corpus
from automium.contracts import Journey, to_document
from automium.execution.executor import Options, run_journey
from automium.hosting.bundles import secret
from tests.browser.journeys import CI, TIMEOUT_MS, built


def _secret_refs(journey: Journey) -> list[str]:
    refs = [getattr(step, "secret_ref", None) for step in journey.steps]
    return [ref for ref in refs if isinstance(ref, str)]


def _signed_in_journeys() -> list[object]:
    found = [j for j in corpus.reference_journeys() if _secret_refs(j)]
    params: list[object] = []
    for journey in found:
        if not (built(journey.app_id) or CI):
            continue
        params.append(pytest.param(journey.id, id=journey.id))
        if not CI:
            break  # one signed-in run is the slice
    return params or [pytest.param(None, marks=pytest.mark.skip(reason="no sign-in app built"))]


def _readable(path: Path) -> list[tuple[str, bytes]]:
    """The file's bytes, and each member's when it is a zip (a trace)."""
    data = path.read_bytes()
    if not zipfile.is_zipfile(path):
        return [(path.name, data)]
    with zipfile.ZipFile(path) as archive:
        return [(path.name, data)] + [
            (f"{path.name}:{name}", archive.read(name)) for name in archive.namelist()
        ]


@pytest.mark.parametrize("journey_id", _signed_in_journeys())
def test_no_secret_appears_in_any_artifact_of_a_signed_in_run(
    chromium_browser: Browser, tmp_path: Path, journey_id: str
) -> None:
    journey = next(j for j in corpus.reference_journeys() if j.id == journey_id)
    outcome = run_journey(to_document(journey), chromium_browser, Options(tmp_path, TIMEOUT_MS))
    values = [secret(journey.app_id, ref) for ref in _secret_refs(journey)]
    needles = {
        form.encode()
        for value in values
        for form in (value, quote(value), base64.b64encode(value.encode()).decode())
    }
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert any(p.suffix == ".zip" for p in files)
    leaks = [
        (name, needle)
        for path in files
        for name, data in _readable(path)
        for needle in needles
        if needle in data
    ]
    assert leaks == []
    assert outcome.verdict.value in ("passed", "failed", "blocked", "errored")


def _run_with_code(
    browser: Browser, out: Path, code: str | None, monkeypatch: pytest.MonkeyPatch
) -> bytes:
    """The screenshot of the step that types the one-time code, the seed's or ``code``."""
    from automium.execution import executor  # noqa: PLC0415

    if code is not None:
        monkeypatch.setattr(
            executor,
            "secret",
            lambda app, ref: code if ref.endswith("one-time-code") else secret(app, ref),
        )
    journey = next(
        j for j in corpus.reference_journeys() if j.id == "bank-sandbox.transfer-to-savings"
    )
    # From the fixture's own signed-in start: the sign-in it uses would type the code too, and
    # another code would stop the run there.
    document = {k: v for k, v in to_document(journey).items() if k != "uses"}
    outcome = run_journey(document, browser, Options(out, TIMEOUT_MS, video=False))
    monkeypatch.undo()
    (shot,) = outcome.folder.glob("screenshots/*-enter-code.png")
    return shot.read_bytes()


@pytest.mark.skipif(not built("bank-sandbox"), reason="app not built")
def test_two_runs_differing_only_in_the_secret_give_the_same_screenshot_at_its_fill(
    chromium_browser: Browser, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seeded = _run_with_code(chromium_browser, tmp_path / "a", None, monkeypatch)
    other = _run_with_code(chromium_browser, tmp_path / "b", "97531086420", monkeypatch)

    assert seeded == other


@pytest.mark.skipif(not built("bank-sandbox"), reason="app not built")
def test_a_field_made_unreadable_shows_no_text_or_caret_in_any_image(
    chromium_browser: Browser,
) -> None:
    """What the screencast, and so the video, records: the page as rendered, no mask."""
    from automium.execution.actions import HIDE_TEXT  # noqa: PLC0415

    page = chromium_browser.new_page()
    try:
        shots = []
        for value in ("246810", "1357913579135"):
            page.set_content('<input id="code" autofocus style="font-size:32px">')
            field = page.locator("#code")
            field.evaluate(HIDE_TEXT)
            field.fill(value)
            shots.append(page.screenshot())
        page.set_content('<input id="code" style="font-size:32px">')
        page.locator("#code").fill("246810")
        plain = page.screenshot()
    finally:
        page.close()

    assert shots[0] == shots[1]
    assert plain != shots[0]  # the same field, readable, does show its text
