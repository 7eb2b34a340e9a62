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
