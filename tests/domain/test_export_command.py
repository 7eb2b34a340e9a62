"""``automium export``: one test file written into the directory asked, or nothing at all
and the tool-error document compile would give, with exit code 2."""

from __future__ import annotations

import io
import json
from pathlib import Path

from automium.cli import main
from automium.commands.export import export_command
from tests.cases import journey_with


def run(journey: str, fmt: str, out: Path) -> tuple[int, str, str]:
    stdout, stderr = io.StringIO(), io.StringIO()
    code = export_command(journey, fmt, str(out), stdout, stderr)
    return code, stdout.getvalue(), stderr.getvalue()


def test_a_reference_journey_is_written_as_its_one_test_file(tmp_path: Path) -> None:
    out = tmp_path / "new" / "folder"

    code, stdout, stderr = run("shop-lite.buy-one-mug", "ts", out)

    assert (code, stderr) == (0, "")
    assert [p.name for p in out.iterdir()] == ["shop-lite.buy-one-mug.spec.ts"]
    assert stdout == f"{out / 'shop-lite.buy-one-mug.spec.ts'}\n"
    assert "test('Buy one mug and see the order confirmation'" in (
        (out / "shop-lite.buy-one-mug.spec.ts").read_text("utf-8")
    )


def test_a_journey_file_is_exported_as_compile_takes_it(tmp_path: Path) -> None:
    journey = tmp_path / "journey.json"
    journey.write_text(json.dumps(journey_with(id="shop-lite.my-mug")), "utf-8")

    code, _, _ = run(str(journey), "py", tmp_path / "out")

    assert code == 0
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["test_shop_lite_my_mug.py"]


def test_a_journey_compile_refuses_writes_nothing_and_prints_the_tool_error(
    tmp_path: Path,
) -> None:
    journey = tmp_path / "journey.json"
    journey.write_text(json.dumps(journey_with(fixtureId="shop-lite.vip")), "utf-8")

    code, stdout, stderr = run(str(journey), "ts", tmp_path / "out")

    assert code == 2
    error = json.loads(stdout)
    assert (error["schemaVersion"], error["code"], error["path"]) == (
        "automium.tool-error/v1",
        "unknown_fixture",
        "/fixtureId",
    )
    assert stderr.startswith("automium export: error unknown_fixture: ")
    assert not (tmp_path / "out").exists()


def test_an_unknown_journey_lists_the_reference_journeys(tmp_path: Path) -> None:
    code, stdout, _ = run("shop-lite.buy-two-mugs", "ts", tmp_path)

    error = json.loads(stdout)
    assert (code, error["code"]) == (2, "unknown_journey")
    assert "shop-lite.buy-one-mug" in error["allowed"]


def test_a_file_that_is_not_json_is_invalid_input(tmp_path: Path) -> None:
    journey = tmp_path / "journey.json"
    journey.write_text("steps: []", "utf-8")

    code, stdout, _ = run(str(journey), "ts", tmp_path / "out")

    assert (code, json.loads(stdout)["code"]) == (2, "invalid_input")


def test_the_command_line_runs_the_export(tmp_path: Path) -> None:
    code = main(["export", "todo-mvc.add-two-todos", "--format", "py", "--out", str(tmp_path)])

    assert code == 0
    assert [p.name for p in tmp_path.iterdir()] == ["test_todo_mvc_add_two_todos.py"]
