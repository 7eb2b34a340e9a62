"""``automium run --shard i/n`` for real: each shard runs its slice and indexes it, and
``automium merge`` joins the shards into the run not split (trials, verdicts, JUnit)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import pytest
from playwright.sync_api import Browser, expect

from automium.cli import _parser
from automium.execution import command, merging

Json = dict[str, Any]


def run(argv: list[str], browser: Browser) -> int:
    return command.main(_parser().parse_args(["run", *argv]), browser)


def merge(argv: list[str]) -> int:
    return merging.main(_parser().parse_args(["merge", *argv]))


def _measured_aside(trials: Json) -> Json:
    """The trials with what each run measures (its time) left out."""
    return trials | {"trials": [{**t, "latencyMs": 0} for t in trials["trials"]]}


def test_two_shards_run_their_slices_and_merge_into_the_run_not_split(
    chromium_browser: Browser, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    whole = tmp_path / "whole"
    assert (
        run(
            ["todo-mvc", "--out", str(whole), "--trials-out", str(tmp_path / "w.json")],
            chromium_browser,
        )
        == 0
    )
    for i in (1, 2):
        assert (
            run(
                ["todo-mvc", "--out", str(tmp_path / f"s{i}"), "--shard", f"{i}/2"],
                chromium_browser,
            )
            == 0
        )
    first = json.loads((tmp_path / "s1" / "index-1-of-2.json").read_text())
    second = json.loads((tmp_path / "s2" / "index-2-of-2.json").read_text())
    assert [r["position"] for r in first["runs"]] == [0, 1]  # 3 trials: 2 then 1
    assert [r["position"] for r in second["runs"]] == [2]
    out = tmp_path / "merged" / "index.json"
    out.parent.mkdir()
    code = merge(
        [
            str(tmp_path / "s2" / "index-2-of-2.json"),
            str(tmp_path / "s1" / "index-1-of-2.json"),
            "--out",
            str(out),
            "--trials-out",
            str(tmp_path / "m.json"),
            "--junit",
            str(tmp_path / "junit.xml"),
        ]
    )
    assert code == 0
    assert "3 trials of 2 shards, 3 passed" in capsys.readouterr().out
    merged = json.loads(out.read_text())
    unsplit = json.loads((whole / "index.json").read_text())
    assert [(r["runId"], r["verdict"]) for r in merged["runs"]] == [
        (r["runId"], r["verdict"]) for r in unsplit["runs"]
    ]
    for run_entry in merged["runs"]:  # each folder leads from the merged index to its run
        assert (out.parent / run_entry["folder"] / "manifest.json").is_file()
    assert _measured_aside(json.loads((tmp_path / "m.json").read_text())) == _measured_aside(
        json.loads((tmp_path / "w.json").read_text())
    )
    cases = ET.parse(tmp_path / "junit.xml").getroot().findall("testsuite/testcase")
    assert len(cases) == 3


def test_merge_refuses_a_missing_shard_with_its_code_and_writes_nothing(
    chromium_browser: Browser, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        run(
            ["todo-mvc.add-two-todos", "--repeat", "2", "--out", str(tmp_path), "--shard", "2/2"],
            chromium_browser,
        )
        == 0
    )
    capsys.readouterr()
    out = tmp_path / "merged.json"
    assert merge([str(tmp_path / "index-2-of-2.json"), "--out", str(out)]) == 2
    error = json.loads(capsys.readouterr().out)
    assert (error["code"], error["allowed"]) == ("missing_shards", ["1/2"])
    assert not out.exists()


def test_a_shard_with_no_trial_writes_an_empty_index_so_the_merge_is_whole(
    chromium_browser: Browser, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for i in (1, 2, 3):
        assert (
            run(
                [
                    "todo-mvc.add-two-todos",
                    "--repeat",
                    "2",
                    "--out",
                    str(tmp_path / f"s{i}"),
                    "--shard",
                    f"{i}/3",
                ],
                chromium_browser,
            )
            == 0
        )
    assert "shard 3/3 holds none of the 2 trials" in capsys.readouterr().out
    indexes = [str(tmp_path / f"s{i}" / f"index-{i}-of-3.json") for i in (1, 2, 3)]
    assert merge([*indexes, "--out", str(tmp_path / "merged.json")]) == 0
    merged = json.loads((tmp_path / "merged.json").read_text())
    assert [r["trial"]["repetition"] for r in merged["runs"]] == [1, 2]


def test_a_trial_that_fails_again_on_its_retry_is_indexed_with_the_retry_in_its_own_folder(
    chromium_browser: Browser, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["todo-mvc.add-two-todos", "--out", str(tmp_path), "--retries", "1"]
    argv += ["--fault", "remove:textbox:What needs to be done?", "--timeout", "500"]
    argv += ["--junit", str(tmp_path / "junit.xml")]
    assert run(argv, chromium_browser) == 1
    printed = capsys.readouterr().out
    (entry,) = json.loads((tmp_path / "index.json").read_text())["runs"]
    assert (entry["verdict"], entry["flaky"]) == ("failed", False)
    assert [r["folder"] for r in entry["retries"]] == [f"retry-1/{entry['runId']}"]
    assert (tmp_path / entry["retries"][0]["folder"] / "manifest.json").is_file()
    assert f"retry 1: failed ({tmp_path / 'retry-1' / entry['runId']})" in printed
    (case,) = ET.parse(tmp_path / "junit.xml").getroot().findall("testsuite/testcase")
    assert [child.tag for child in case] == ["failure", "rerunFailure", "system-out"]


def test_the_html_report_shows_a_person_every_trial_its_steps_screenshots_and_the_leaderboard(
    chromium_browser: Browser, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "report" / "index.html"
    report.parent.mkdir()
    argv = ["todo-mvc.add-two-todos", "todo-mvc.clear-completed", "--out", str(tmp_path / "runs")]
    argv += ["--fault", "remove:button:Clear completed", "--timeout", "500"]
    assert run([*argv, "--html", str(report)], chromium_browser) == 1
    capsys.readouterr()
    context = chromium_browser.new_context()  # a file: nothing on the network to reach
    requests: list[str] = []
    context.on("request", lambda request: requests.append(request.url))
    try:
        page = context.new_page()
        page.goto(report.as_uri())
        trials = page.locator("details.trial")
        expect(trials).to_have_count(2)
        expect(trials.nth(0).locator("summary")).to_contain_text(
            "todo-mvc.add-two-todos [scripted-journey] #1: passed"
        )
        expect(trials.nth(1).locator("summary")).to_contain_text(": failed, ")
        expect(page.locator("#leaderboard tr").nth(1)).to_contain_text("scripted-journey")
        expect(page.locator("#pareto circle")).to_have_count(1)
        trials.nth(1).locator("summary").click()
        failed = trials.nth(1)
        expect(failed.locator("table.steps")).to_contain_text("action.failed")
        image = failed.locator("img").first
        expect(image).to_be_visible()
        assert image.evaluate("img => img.naturalWidth") > 0
        trace = failed.locator("a.trace").first
        href = trace.get_attribute("href")
        assert href is not None
        assert (report.parent / href).is_file()
    finally:
        context.close()
    assert all(url.startswith("file://") for url in requests)
