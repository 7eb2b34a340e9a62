"""Wrong journeys derived from the reference journeys are refused, or compile with what
names the risk; correct ones with dynamic content compile (:mod:`tests.journey_mutants`).

The full set (some 2,000 mutants, about 5 s) runs under ``CI=true`` and with
``python -m tests.journey_mutants``; ``make test`` runs every tenth. The real runs'
column: ``tests/browser/test_mutants_for_real.py``.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Mapping
from functools import cache
from typing import Any

from tests.journey_mutants import (
    CLASSES,
    REFUSED,
    UNCHECKED,
    VALID,
    Mutant,
    _journey,
    by_class,
    confusion,
    mutants,
    render,
    static_verdict,
)

FULL = os.environ.get("CI") == "true"


@cache
def _all() -> tuple[Mutant, ...]:
    return tuple(mutants())


def _slice() -> list[Mutant]:
    """Every mutant under CI, else every tenth of each class, its first included (and every
    correct variant): a class with few mutants is never left out."""
    kept: list[Mutant] = []
    seen: Counter[str] = Counter()
    for mutant in _all():
        if FULL or not mutant.wrong or seen[mutant.klass] % 10 == 0:
            kept.append(mutant)
        seen[mutant.klass] += 1
    return kept


def test_the_generator_derives_at_least_300_wrong_journeys_across_every_class() -> None:
    wrong = [m for m in _all() if m.wrong]
    classes = {m.klass for m in wrong}

    assert len(wrong) >= 300
    assert classes == set(CLASSES)
    assert sum(not m.wrong for m in _all()) >= 40  # the references and dynamic variants


def test_no_correct_journey_is_refused_the_dynamic_variants_and_the_walks_included() -> None:
    # One test over the correct ones, not one each: parametrising made every process of the
    # quick tier derive all 3,000 mutants as it collected, a second each.
    refused = [m.name for m in _all() if not m.wrong and static_verdict(m.journey) == REFUSED]

    assert refused == []


def test_no_wrong_journey_compiles_silently_but_an_assertion_moved_a_step_early() -> None:
    # Moving an assertion one step earlier is wrong only if that step changes what it
    # checks; where the page model says it does not (a static table, the default option),
    # only a run can say, so those are the one class left to the real column.
    silent = [
        m.name
        for m in _slice()
        if m.wrong and m.klass != "order" and static_verdict(m.journey) == VALID
    ]

    assert silent == []


def test_every_class_has_mutants_compile_refuses() -> None:
    table = by_class([m for m in _slice() if m.wrong])

    assert set(table) == set(CLASSES)
    assert all(verdicts[REFUSED] for verdicts in table.values())
    assert set(table["order"]) <= {REFUSED, UNCHECKED, VALID}


def test_the_confusion_matrix_takes_the_real_outcome_from_a_callable() -> None:
    sample = [m for m in _all() if not m.wrong][:3] + [m for m in _all() if m.wrong][:2]

    def real(journey: Mapping[str, Any]) -> str:
        return "passed" if journey in [m.journey for m in sample[:3]] else "failed"

    counts = confusion(sample, real=real)

    assert counts == Counter(
        ("passed" if i < 3 else "failed", static_verdict(m.journey)) for i, m in enumerate(sample)
    )
    assert "expected \\ static" in render(counts)


def test_the_pages_own_document_is_refused_as_a_target_as_no_browser_finds_it_by_its_title() -> (
    None
):
    # Found by measuring against real runs: compile matched the page's document by the
    # route's title and called ``visible document "All todos"`` valid; Chromium gives the
    # document no name, so it failed for real.
    journey = _journey(
        "todo-mvc.the-page-itself",
        "todo-mvc",
        "todo-mvc.empty",
        [{"intent": "navigate", "route": "all"}],
        [
            {
                "kind": "visible",
                "target": {"role": "document", "name": "All todos"},
                "afterStep": "s0",
            }
        ],
    )

    assert static_verdict(journey) == REFUSED
