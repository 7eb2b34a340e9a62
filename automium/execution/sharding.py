"""A run split into shards, as Playwright splits tests, and the shards' indexes merged.

A run's trials are a list: for each journey given, its repetitions, in the order given.
``--shard i/n`` runs a contiguous slice of that list, sized as Playwright sizes its shards
(the first ``total % n`` shards take one more), and writes a ``run-index.v1`` of what it ran,
each trial at its position in the whole list. :func:`merge` joins the indexes of the n
shards into the index of the whole run, refusing, each with its own code:

===================== ======================================================================
code                  refused indexes
===================== ======================================================================
mixed_corpus_versions they ran on different corpus versions
mixed_shard_runs      they split different runs (another trial list or number of shards)
overlapping_shards    two hold the same shard, or the same position
missing_shards        a shard of the n is not among them, or a shard lacks trials (cut off)
===================== ======================================================================

The merged index's trials (:func:`trials_of`) are what ``automium_compare_planners`` takes,
in the order of the whole run: the same document an unsharded run's ``--trials-out`` holds.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from automium import corpus
from automium.contracts import ErrorCode
from automium.errors import AutomiumError, Problem, pointer

Json = dict[str, Any]
SCHEMA_VERSION = "automium.run-index/v1"
_SHARD = re.compile(r"([1-9][0-9]{0,3})/([1-9][0-9]{0,3})")


@dataclass(frozen=True, slots=True)
class Shard:
    """Shard ``index`` of ``total``, from 1."""

    index: int
    total: int

    def __str__(self) -> str:
        return f"{self.index}/{self.total}"

    def positions(self, trials: int) -> range:
        """The positions of the whole run's ``trials`` this shard runs (Playwright's sizes)."""
        size, extra = divmod(trials, self.total)
        before = self.index - 1
        start = size * before + min(extra, before)
        return range(start, start + size + (1 if before < extra else 0))


WHOLE = Shard(1, 1)


def parse_shard(text: str) -> Shard:
    """``"2/3"`` as a shard; anything else is refused with the form it takes."""
    match = _SHARD.fullmatch(text)
    if match is None or int(match[1]) > int(match[2]):
        raise AutomiumError.single(
            ErrorCode.INVALID_INPUT,
            f"--shard {text!r} is not i/n with 1 <= i <= n <= 9999, e.g. --shard 1/3",
            "/shard",
        )
    return Shard(int(match[1]), int(match[2]))


def selection(planners: Sequence[Json], trials: Sequence[tuple[str, int]]) -> str:
    """The digest shards of one run share: its planners and its (journey, repetition) list."""
    canonical = json.dumps([list(planners), [list(t) for t in trials]], sort_keys=True)
    return "sha256:" + hashlib.sha256(canonical.encode()).hexdigest()


def run_index(
    shard: Shard, digest: str, trials_total: int, planners: Sequence[Json], runs: Sequence[Json]
) -> Json:
    """The ``run-index.v1`` of one shard (``WHOLE`` for a run not split)."""
    return {
        "schemaVersion": SCHEMA_VERSION,
        "corpusVersion": corpus.CORPUS_VERSION,
        "selection": digest,
        "trialsTotal": trials_total,
        "shards": [str(shard)],
        "planners": list(planners),
        "runs": list(runs),
    }


def merge(indexes: Sequence[Json]) -> Json:
    """The index of the whole run from its shards' (``folder``s as each index gives them)."""
    first = indexes[0]
    problems = [
        _mismatch(ErrorCode.MIXED_CORPUS_VERSIONS, at, "corpusVersion", first, index)
        for at, index in enumerate(indexes)
        if index["corpusVersion"] != first["corpusVersion"]
    ] + [
        _mismatch(ErrorCode.MIXED_SHARD_RUNS, at, key, first, index)
        for at, index in enumerate(indexes)
        for key in ("selection", "trialsTotal")
        if index[key] != first[key]
    ]
    shards = _shards(indexes, problems)
    if problems:
        raise AutomiumError(problems)
    total = shards[0].total
    missing = [str(Shard(i, total)) for i in range(1, total + 1) if Shard(i, total) not in shards]
    if missing:
        raise AutomiumError.single(
            ErrorCode.MISSING_SHARDS,
            f"shards {', '.join(missing)} of {total} are missing: merge the index of every shard",
            "",
            missing,
        )
    runs = _runs(indexes, first["trialsTotal"])
    return run_index(WHOLE, first["selection"], first["trialsTotal"], first["planners"], runs) | {
        "shards": [str(s) for s in sorted(shards, key=lambda s: s.index)]
    }


def trials_of(index: Json) -> Json:
    """The index's trials as ``automium_compare_planners`` takes recorded trials."""
    trials = [run["trial"] for run in index["runs"]]
    return {
        "corpusVersion": index["corpusVersion"],
        "appIds": sorted({t["appId"] for t in trials}),
        "planners": index["planners"],
        "repetitions": max(t["repetition"] for t in trials),
        "trials": trials,
    }


def _mismatch(code: ErrorCode, at: int, key: str, first: Json, index: Json) -> Problem:
    return Problem(
        code,
        f"index {at + 1} has {key} {index[key]!r} where index 1 has {first[key]!r}: merge the "
        "shards of one run only",
        pointer("indexes", at, key),
        (first[key],),
    )


def _shards(indexes: Sequence[Json], problems: list[Problem]) -> list[Shard]:
    """Each index's shards; one held twice, or of another number of shards, is a problem."""
    seen: dict[Shard, int] = {}
    totals = {parse_shard(text).total for index in indexes for text in index["shards"]}
    for at, index in enumerate(indexes):
        for held, text in enumerate(index["shards"]):
            shard = parse_shard(text)
            where = pointer("indexes", at, "shards", held)
            if len(totals) > 1:
                problems.append(
                    Problem(
                        ErrorCode.MIXED_SHARD_RUNS,
                        f"shard {shard} is of {shard.total} where others are of "
                        f"{', '.join(str(t) for t in sorted(totals - {shard.total}))}: merge "
                        "the shards of one split only",
                        where,
                    )
                )
            elif shard in seen:
                problems.append(
                    Problem(
                        ErrorCode.OVERLAPPING_SHARDS,
                        f"shard {shard} is in index {seen[shard] + 1} and index {at + 1}: give "
                        "each shard's index once",
                        where,
                    )
                )
            seen.setdefault(shard, at)
    return list(seen)


def _runs(indexes: Sequence[Json], trials_total: int) -> list[Json]:
    """Every run by position; a position held twice or by none is refused."""
    by_position: dict[int, Json] = {}
    for at, index in enumerate(indexes):
        for held, run in enumerate(index["runs"]):
            if run["position"] in by_position:
                raise AutomiumError.single(
                    ErrorCode.OVERLAPPING_SHARDS,
                    f"position {run['position']} is run by two shards: give each shard's index "
                    "once",
                    pointer("indexes", at, "runs", held, "position"),
                )
            by_position[run["position"]] = run
    absent = [p for p in range(trials_total) if p not in by_position]
    if absent:
        shown = ", ".join(str(p) for p in absent[:10]) + (", …" if len(absent) > 10 else "")
        raise AutomiumError.single(
            ErrorCode.MISSING_SHARDS,
            f"{len(absent)} of {trials_total} trials are in no index (positions {shown}): a "
            "shard was cut off; run it again",
            "",
        )
    return [by_position[p] for p in range(trials_total)]
