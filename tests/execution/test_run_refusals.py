"""What ``automium run`` refuses before any browser starts: a journey compile refuses, a URL
or anything else that is not a route id, and a run directory that leads elsewhere."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from automium import corpus
from automium.cli import main
from automium.contracts import to_document
from automium.errors import AutomiumError
from automium.execution.evidence import RunDir, UnsafeRunDir
from automium.execution.places import RefusedPlace, Routes


def test_a_journey_compile_refuses_prints_its_tool_error_exits_2_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journey = to_document(corpus.reference_journeys()[0])
    journey["steps"][0]["route"] = "nowhere"
    given = tmp_path / "journey.json"
    given.write_text(json.dumps(journey))
    out = tmp_path / "out"
    code = main(["run", str(given), "--out", str(out)])
    error = json.loads(capsys.readouterr().out)
    assert (code, error["schemaVersion"], error["code"], error["path"]) == (
        2,
        "automium.tool-error/v1",
        "unknown_route",
        "/steps/0/route",
    )
    assert not out.exists()


def test_an_unknown_journey_name_is_refused_with_the_reference_journeys_allowed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["run", "no-such-journey"])
    error = json.loads(capsys.readouterr().out)
    assert (code, error["code"]) == (2, "unknown_journey")
    assert "todo-mvc.add-two-todos" in error["allowed"]


@pytest.mark.parametrize(
    "place",
    ["https://example.com/", "http://127.0.0.1:9/", "/products/x", "../etc", "cart?x=1", ""],
)
def test_the_executor_refuses_a_url_and_anything_not_a_route_id(place: str) -> None:
    routes = Routes.of(corpus.get_fixture("shop-lite.returning-buyer", "shop-lite"))
    with pytest.raises(RefusedPlace):
        routes.path(place, None)


def test_a_route_and_its_entity_make_the_path_and_the_path_gives_them_back() -> None:
    routes = Routes.of(corpus.get_fixture("shop-lite.returning-buyer", "shop-lite"))
    path = routes.path("product", "stoneware-mug")
    assert path == "/products/stoneware-mug"
    assert routes.match("http://127.0.0.1:1" + path) == ("product", "stoneware-mug")
    assert routes.match("http://127.0.0.1:1/orders/1042/confirmation") == (
        "order-confirmation",
        "order-1042",
    )
    with pytest.raises(RefusedPlace):
        routes.path("product", "no-such-product")


def test_a_run_directory_that_is_a_symlink_is_refused(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "run-1.1").symlink_to(elsewhere)
    with pytest.raises(AutomiumError) as raised:
        RunDir(tmp_path / "out", "run-1.1", "artifacts/x").create()
    assert raised.value.code.value == "unwritable_output"


def test_a_file_is_never_written_through_a_symlink_inside_the_run_directory(
    tmp_path: Path,
) -> None:
    run = RunDir(tmp_path, "run-1.1", "artifacts/x").create()
    (run.folder / "screenshots").symlink_to(tmp_path)
    with pytest.raises(UnsafeRunDir):
        run.write("screenshots/01.png", b"x")
    with pytest.raises(UnsafeRunDir):
        run.write("../escape.txt", b"x")


def test_route_is_matches_the_routes_path_with_any_parameter_value() -> None:
    from automium.execution.actions import _route_url  # noqa: PLC0415 - the rule itself

    routes = Routes.of(corpus.get_fixture("helpdesk.agent-open-queue", "helpdesk"))
    ticket = _route_url(routes, "ticket")
    assert ticket.match("http://127.0.0.1:5/tickets/1042")
    assert not ticket.match("http://127.0.0.1:5/tickets")
    assert not ticket.match("http://127.0.0.1:5/tickets/1042/reply")


def test_an_app_id_names_its_reference_journeys() -> None:
    from automium.execution.command import journeys_of  # noqa: PLC0415

    assert [j["id"] for j in journeys_of("bank-sandbox")] == [
        j.id for j in corpus.reference_journeys() if j.app_id == "bank-sandbox"
    ]
