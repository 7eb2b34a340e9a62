"""The seeded walker (:mod:`automium.journeys.random_walk`): the same seed gives the same
walk, every walk starts with a navigate, and each step is one the page model offered."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from automium import corpus
from automium.contracts import Fixture
from automium.journeys.random_walk import choices, choose, follow, walk

# One fixture per app keeps the quick tier quick; the browser tier walks them all.
FIXTURES = list({f.app_id: f.id for f in reversed(corpus.fixtures())}.values())


def _fixture(fixture_id: str) -> Fixture:
    return next(f for f in corpus.fixtures() if f.id == fixture_id)


@pytest.mark.parametrize("fixture_id", FIXTURES)
def test_the_same_seed_gives_the_same_walk(fixture_id: str) -> None:
    fixture = _fixture(fixture_id)
    first = [w.step for w in walk(fixture, 7, 6)]
    assert first == [w.step for w in walk(fixture, 7, 6)]
    assert first[0]["intent"] == "navigate"
    others = {tuple(map(repr, (w.step for w in walk(fixture, seed, 5)))) for seed in range(3)}
    assert len(others) > 1  # seeds differ: not one walk whatever the seed


@pytest.mark.parametrize("fixture_id", FIXTURES)
def test_each_step_after_the_first_is_one_the_model_offered(fixture_id: str) -> None:
    fixture = _fixture(fixture_id)
    walked = walk(fixture, 3, 5)
    for before, step in itertools.pairwise(walked):
        location = before.visit.after
        assert location is not None
        offered = [*choices(location, fixture), {"intent": "navigate"}]
        if step.step["intent"] in ("navigate",):
            continue
        assert step.step["intent"] in {s["intent"] for s in offered}


def test_choose_navigates_where_the_page_is_unknown() -> None:
    fixture = _fixture("shop-lite.guest-empty-cart")
    assert choose(None, fixture, random.Random(1))["intent"] == "navigate"


def test_a_walk_is_unknown_from_a_lost_page_on() -> None:
    fixture = _fixture("shop-lite.guest-empty-cart")
    steps: list[dict[str, Any]] = [
        {"intent": "navigate", "route": "home"},
        {"intent": "click", "target": {"role": "link", "name": "Contact us"}},
    ]
    walked = follow(fixture, steps)
    assert [w.unknown for w in walked] == [False, True]
