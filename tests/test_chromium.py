"""Finding the browser: the same order for everything that launches one (no browser needed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from automium.execution import chromium


def test_the_environment_variable_wins_over_the_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    binary = tmp_path / "my-chromium"
    binary.write_text("#!/bin/sh\n")
    binary.chmod(0o755)
    monkeypatch.setenv("AUTOMIUM_CHROMIUM", str(binary))

    assert chromium.find_chromium() == binary


def test_an_environment_variable_naming_no_executable_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AUTOMIUM_CHROMIUM", str(tmp_path / "missing"))

    with pytest.raises(chromium.NoChromium, match=r"AUTOMIUM_CHROMIUM=.* is not an executable"):
        chromium.find_chromium()


def test_the_headless_shell_comes_before_full_chromium_on_the_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("chromium", "chromium-headless-shell"):
        (tmp_path / name).write_text("#!/bin/sh\n")
        (tmp_path / name).chmod(0o755)
    monkeypatch.delenv("AUTOMIUM_CHROMIUM", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))

    assert chromium.find_chromium() == tmp_path / "chromium-headless-shell"


def test_nothing_is_found_on_an_empty_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AUTOMIUM_CHROMIUM", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))

    assert chromium.find_chromium() is None


def test_the_message_for_a_missing_browser_says_how_to_get_one() -> None:
    assert "make browser" in chromium.HOW_TO_GET_ONE
    assert "AUTOMIUM_CHROMIUM" in chromium.HOW_TO_GET_ONE


def test_the_command_prints_the_browser_it_finds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    binary = tmp_path / "chromium"
    binary.write_text("#!/bin/sh\n")
    binary.chmod(0o755)
    monkeypatch.delenv("AUTOMIUM_CHROMIUM", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))

    assert chromium.main() == 0
    assert capsys.readouterr().out == f"{binary}\n"


def test_the_command_exits_2_for_a_wrong_environment_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("AUTOMIUM_CHROMIUM", str(tmp_path / "missing"))

    assert chromium.main() == 2
    assert (
        capsys.readouterr().err
        == f"AUTOMIUM_CHROMIUM={tmp_path / 'missing'} is not an executable file\n"
    )


@pytest.mark.subprocess  # asks Playwright's driver, a Node process, for its own build
def test_with_no_browser_anywhere_the_command_says_how_to_get_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("AUTOMIUM_CHROMIUM", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(tmp_path))

    assert chromium.main() == 1
    assert capsys.readouterr().err == chromium.HOW_TO_GET_ONE + "\n"
