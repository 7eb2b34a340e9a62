"""scripts/regen.py: deterministic, --check catches drift, bad contracts are named.

That the committed tree is up to date is ``make test``'s first step (``scripts/regen.py
--check``); it is not run a second time here (a generator run costs ~10 s under coverage).
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path
from types import ModuleType

import pytest

from automium.capabilities import CAPABILITIES
from automium_build.package import TOOL_INPUTS, TOOL_OUTPUTS

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
    _untraced_generator(monkeypatch)
    for name in ("contracts", "generated", "automium/corpus"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    regen = _load_regen()
    monkeypatch.setattr(regen, "ROOT", tmp_path)
    monkeypatch.setattr(regen, "CONTRACTS", tmp_path / "contracts")
    monkeypatch.setattr(regen, "PACKAGE", tmp_path / "generated" / "automium_contracts")
    monkeypatch.setattr(regen, "CORPUS_SOURCE", tmp_path / "automium" / "corpus" / "source")
    monkeypatch.setattr(regen, "CORPUS", tmp_path / "automium/corpus/data/corpus.v1.json")
    return regen, tmp_path


def _untraced_generator(monkeypatch: pytest.MonkeyPatch) -> None:
    # regen.py runs datamodel-codegen as a subprocess; under `make test` coverage would
    # trace that third-party process too (ten times slower) while measuring nothing of ours.
    # regen.py itself still runs, and is measured, in this process.
    monkeypatch.delenv("COVERAGE_PROCESS_CONFIG", raising=False)


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


@pytest.mark.subprocess
def test_regenerating_gives_the_committed_bytes_and_removes_a_stale_module(
    regen_copy: tuple[ModuleType, Path],
) -> None:
    regen, root = regen_copy
    package = root / "generated" / "automium_contracts"
    committed = _snapshot(package)
    (package / "models" / "stale.py").write_text("x = 1\n")
    assert regen.main([]) == 0
    assert _snapshot(package) == committed  # the same bytes as the run that wrote them


@pytest.mark.subprocess
def test_check_fails_with_a_diff_of_each_drift_and_writes_nothing(
    regen_copy: tuple[ModuleType, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    regen, root = regen_copy
    contract = root / "contracts" / "replay-event.v1.schema.json"
    contract.write_text(contract.read_text().replace("Milliseconds since", "Seconds since"))
    package = root / "generated" / "automium_contracts"
    (package / "models" / "stale.py").write_text("x = 1\n")
    before = _snapshot(package)
    assert regen.main(["--check"]) == 1
    out = capsys.readouterr().out
    assert "+++ generated/automium_contracts/schemas/replay-event.v1.json" in out
    assert '+      "description": "Seconds since' in out
    assert "--- generated/automium_contracts/models/stale.py" in out
    assert _snapshot(package) == before  # --check writes nothing


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
@pytest.mark.subprocess
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


def test_regen_publishes_the_contracts_of_every_tool_and_no_other() -> None:
    # The build cannot import the capability table (it rewrites the models that table's
    # package loads), so it keeps its own list; a tool added to one must be in the other.
    assert {c.input_contract for c in CAPABILITIES} == TOOL_INPUTS
    assert {c.output_contract for c in CAPABILITIES} == TOOL_OUTPUTS
    published = ROOT / "generated" / "automium_contracts"
    assert {p.stem for p in (published / "tool-inputs").glob("*.json")} == TOOL_INPUTS
    assert {p.stem for p in (published / "tool-outputs").glob("*.json")} == TOOL_OUTPUTS
