"""``automium merge``: the indexes of a run's shards joined into the index of the whole run.

Each ``INDEX`` is a ``run-index.v1`` written by ``automium run --shard i/n``. The merged
index lists every trial in the order of the whole run, each run directory as a path from the
merged index's folder; ``--trials-out`` writes its trials as ``automium_compare_planners``
takes them, and ``--junit`` a JUnit XML report. Exit 0 merged; 2 refused, with the
``tool-error.v1`` document on stdout and nothing written.
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from automium.contracts import ErrorCode, to_document
from automium.errors import AutomiumError, pointer, quoted
from automium.execution.html_report import write_report
from automium.execution.junit import junit_report
from automium.execution.sharding import merge, trials_of
from automium.validation import check

if TYPE_CHECKING:
    import argparse

Json = dict[str, Any]


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    command = commands.add_parser(
        "merge",
        help="join the run indexes of a run's shards (automium run --shard i/n) into one",
        description="Join the run indexes of every shard of one run into the index of the "
        "whole run. Exit 0 merged, 2 refused (overlapping, missing or mixed shards).",
    )
    command.add_argument("indexes", nargs="+", type=Path, metavar="INDEX", help="a shard's index")
    command.add_argument("--out", type=Path, required=True, metavar="FILE", help="merged index")
    command.add_argument("--trials-out", type=Path, metavar="FILE", help="write recorded trials")
    command.add_argument("--junit", type=Path, metavar="FILE", help="write a JUnit XML report")
    command.add_argument(
        "--html", type=Path, metavar="FILE", help="write a self-contained HTML report"
    )


def main(args: argparse.Namespace) -> int:
    try:
        indexes = [_read(path, at) for at, path in enumerate(args.indexes)]
        merged = merge(
            [_rebased(i, p, args.out) for i, p in zip(indexes, args.indexes, strict=True)]
        )
    except AutomiumError as error:
        print(json.dumps(to_document(error.to_tool_error()), indent=1))
        return 2
    args.out.write_text(json.dumps(merged, indent=1) + "\n")
    if args.trials_out is not None:
        args.trials_out.write_text(json.dumps(trials_of(merged), indent=1) + "\n")
    if args.junit is not None:
        args.junit.write_text(junit_report(merged))
    if args.html is not None:
        write_report(merged, args.out.parent, args.html)
    runs = merged["runs"]
    passed = sum(run["verdict"] == "passed" for run in runs)
    print(f"{args.out}: {len(runs)} trials of {len(merged['shards'])} shards, {passed} passed")
    return 0


def _read(path: Path, at: int) -> Json:
    where = pointer("indexes", at)
    try:
        document = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError) as error:
        raise AutomiumError.single(
            ErrorCode.INVALID_INPUT,
            f"{quoted(str(path))} holds no run index: {error}",
            where,
        ) from None
    problems = check("run-index.v1", document)
    if problems:
        raise AutomiumError(dataclasses.replace(p, path=where + p.path) for p in problems)
    return dict(document)


def _rebased(index: Json, path: Path, out: Path) -> Json:
    """``index`` with each run's folders as paths from the merged index's folder."""
    here, there = path.resolve().parent, out.resolve().parent

    def moved(attempt: Json) -> Json:
        return attempt | {
            "folder": Path(os.path.relpath(here / attempt["folder"], there)).as_posix()
        }

    runs = []
    for run in index["runs"]:
        runs.append(moved(run))
        if "retries" in run:
            runs[-1]["retries"] = [moved(retry) for retry in run["retries"]]
    return index | {"runs": runs}
