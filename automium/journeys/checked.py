"""A journey that compile accepts, built once: its document, model, walk and ref.

Compile, a run submission, the modeled timeline and a comparison all need the same four
things of a journey. :func:`checked_journey` checks a document once and hands them on
together, so no consumer dumps a model back to a document to check it again; the
reference journeys of the corpus are checked once per process (:func:`reference_journey`).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, cached_property
from typing import Any

from automium import corpus
from automium.contracts import Journey, to_document
from automium.errors import AutomiumError
from automium.journeys.checking import Checked, check_journey
from automium.journeys.composition import Prefix
from automium.journeys.page_checks import Unchecked, Walk, Warning
from automium.journeys.refs import journey_ref
from automium.journeys.whole_numbers import whole_numbers


class CheckedJourney:
    """A valid journey: the document it runs, its model, the walk through its pages (with
    warnings and what only a run can prove) and its ref.

    A journey that ``uses`` another runs that one's steps first: ``document`` is then the
    expanded journey (no ``uses``; every step a run performs), ``written`` the journey as
    its author wrote it, and ``prefix`` says which steps came from where."""

    def __init__(
        self,
        document: Mapping[str, Any],
        walk: Walk,
        *,
        model: Journey | None = None,
        written: Mapping[str, Any] | None = None,
        prefix: Prefix | None = None,
    ) -> None:
        self.document = document
        self.walk = walk
        self.written = written if written is not None else document
        self.prefix = prefix
        if model is not None:
            self.__dict__["model"] = model

    @cached_property
    def model(self) -> Journey:
        # Only the consumers that read fields typed build it; compile never does.
        return Journey.model_validate(self.document)

    @cached_property
    def ref(self) -> str:
        return journey_ref(self.document)

    @property
    def id(self) -> str:
        return str(self.document["id"])

    @property
    def warnings(self) -> tuple[Warning, ...]:
        return tuple(self.walk.warnings)

    @property
    def unchecked(self) -> tuple[Unchecked, ...]:
        return tuple(self.walk.unchecked)

    def unchecked_assertions(self) -> frozenset[str]:
        """Ids of the assertions only a run can settle."""
        paths = {u.path for u in self.walk.unchecked}
        return frozenset(
            str(a["id"])
            for i, a in enumerate(self.written["assertions"])
            if f"/assertions/{i}" in paths
        )


def checked_journey(document: object, *, model: Journey | None = None) -> CheckedJourney:
    """``document`` checked as compile checks it, or :class:`AutomiumError` with every
    problem. ``model``: the journey's model, when the caller built it already."""
    return accepted(document, check_journey(document), model=model)


def accepted(document: object, checked: Checked, *, model: Journey | None = None) -> CheckedJourney:
    """The checked journey of ``document`` from a check already made of it."""
    if checked.problems:
        raise AutomiumError(checked.problems, in_order=True)
    # Accepted: a journey object, whose app and fixture are known, so its pages were walked.
    assert isinstance(document, Mapping)
    assert checked.walk is not None
    if checked.expansion is not None:
        expansion = checked.expansion
        # The model given is of the journey as written; the run's is of the expanded one.
        return CheckedJourney(
            whole_numbers(expansion.document),
            checked.walk,
            written=document,
            prefix=expansion.prefix,
        )
    return CheckedJourney(whole_numbers(document), checked.walk, model=model)


@cache  # the corpus is checked in: its journeys never change while serving
def reference_journeys() -> Mapping[str, CheckedJourney]:
    """Every reference journey of the corpus, checked once, by id."""
    return {j.id: checked_journey(to_document(j), model=j) for j in corpus.reference_journeys()}


def reference_journey(journey_id: str) -> CheckedJourney:
    return reference_journeys()[journey_id]
