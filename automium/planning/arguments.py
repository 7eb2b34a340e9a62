"""The ``--planner`` options of ``automium run``; light to import (the parser is built at
every start of the command, a trial's modules load only when one runs)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse


def add_arguments(run: argparse.ArgumentParser) -> None:
    run.add_argument(
        "--planner",
        action="append",
        default=[],
        metavar="SPEC",
        help="let a planner decide (repeatable): scripted-journey, random[:SEED], heuristic, "
        "or cmd:ID=COMMAND (a command speaking planner-adapter.v1 as JSON lines on stdio); "
        "trials pass when the journey's successChecks hold at the end",
    )
    run.add_argument(
        "--decision-timeout",
        type=float,
        default=30.0,
        metavar="S",
        help="seconds a planner command has for each decision (default 30)",
    )
    run.add_argument(
        "--max-steps",
        type=int,
        metavar="N",
        help="decisions per trial (default: twice the journey's steps, plus four)",
    )
    run.add_argument(
        "--planner-env",
        action="append",
        default=[],
        metavar="NAME",
        help="pass this environment variable to a planner command (it gets none otherwise)",
    )
