"""scripts/regen.py: deterministic, --check catches drift, bad contracts are named."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _load_regen() -> ModuleType:
    spec = importlib.util.spec_from_file_location("regen", ROOT / "scripts" / "regen.py")
    assert spec
    assert spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def regen_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[ModuleType, Path]:
    """regen.py pointed at a scratch copy of the repository's inputs and outputs."""
    for name in ("contracts", "generated"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    regen = _load_regen()
    monkeypatch.setattr(regen, "ROOT", tmp_path)
    monkeypatch.setattr(regen, "CONTRACTS", tmp_path / "contracts")
    monkeypatch.setattr(regen, "PACKAGE", tmp_path / "generated" / "automium_contracts")
    return regen, tmp_path


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


def test_check_passes_on_the_committed_tree() -> None:
    result = subprocess.run(
        [sys.executable, "scripts/regen.py", "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "regen: generated/ is up to date"


def test_regenerating_twice_gives_identical_bytes(regen_copy: tuple[ModuleType, Path]) -> None:
    regen, root = regen_copy
    package = root / "generated" / "automium_contracts"
    before = _snapshot(package)
    assert regen.main([]) == 0
    first = _snapshot(package)
    assert regen.main([]) == 0
    assert _snapshot(package) == first == before


def test_check_fails_with_a_diff_after_a_description_changes(
    regen_copy: tuple[ModuleType, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    regen, root = regen_copy
    contract = root / "contracts" / "replay-event.v1.schema.json"
    contract.write_text(contract.read_text().replace("Milliseconds since", "Seconds since"))
    package = root / "generated" / "automium_contracts"
    before = _snapshot(package)
    assert regen.main(["--check"]) == 1
    out = capsys.readouterr().out
    assert "+++ generated/automium_contracts/schemas/replay-event.v1.json" in out
    assert '+      "description": "Seconds since' in out
    assert _snapshot(package) == before  # --check writes nothing


def test_a_stale_extra_module_is_reported(regen_copy: tuple[ModuleType, Path]) -> None:
    regen, root = regen_copy
    (root / "generated" / "automium_contracts" / "models" / "stale.py").write_text("x = 1\n")
    assert regen.main(["--check"]) == 1
    assert regen.main([]) == 0
    assert not (root / "generated" / "automium_contracts" / "models" / "stale.py").exists()


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (lambda text: text[:-3], "journey.v1.schema.json: not valid JSON (line"),
        (
            lambda text: text.replace('"minItems": 1', '"minItems": "one"', 1),
            "journey.v1.schema.json: not a valid 2020-12 schema at",
        ),
        (
            lambda text: text.replace('"$ref": "#/$defs/Recovery"', '"$ref": "nowhere.json"', 1),
            "$ref 'nowhere.json' points at an unknown contract",
        ),
    ],
    ids=["invalid-json", "invalid-schema", "unknown-ref"],
)
def test_an_invalid_contract_is_named_with_the_reason_and_no_traceback(
    regen_copy: tuple[ModuleType, Path],
    capsys: pytest.CaptureFixture[str],
    edit: object,
    expected: str,
) -> None:
    regen, root = regen_copy
    contract = root / "contracts" / "journey.v1.schema.json"
    contract.write_text(edit(contract.read_text()))  # type: ignore[operator]
    assert regen.main(["--check"]) == 2
    err = capsys.readouterr().err
    assert expected in err
    assert "Traceback" not in err
