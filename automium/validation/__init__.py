"""Check a JSON document against its contract, explain every problem, build its model.

The published contract is the one rule book: a document is accepted exactly when its
contract accepts it (plus the domain's own checks, which come later). The jobs are split:

- :mod:`~automium.validation.checking` gives the verdict (compiled validators);
- :mod:`~automium.validation.explaining` turns each error into a coded problem;
- this module joins them and bridges to the generated pydantic models.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel
from pydantic import ValidationError as PydanticValidationError

from automium.contracts import ErrorCode
from automium.errors import AutomiumError, Problem, pointer
from automium.validation.checking import errors, is_valid
from automium.validation.explaining import Explainer, Vocabularies

__all__ = ["Vocabularies", "check", "is_valid", "parse", "to_model"]

M = TypeVar("M", bound=BaseModel)


def check(contract: str, document: Any, vocabularies: Vocabularies | None = None) -> list[Problem]:
    """Every problem of ``document`` against ``contract`` (empty when valid)."""
    if is_valid(contract, document):
        return []
    explainer = Explainer(contract, vocabularies or {})
    # One problem per (code, path): a missing property can break several rules, and ""
    # breaks both minLength and the non-blank pattern; one explains it.
    problems: dict[tuple[str, str], Problem] = {}
    for error in errors(contract, document):
        for problem in explainer.explain(error):
            problems.setdefault((problem.code, problem.path), problem)
        if len(problems) >= _EXPLAINED:  # a tool error lists 200; the rest is hostile work
            break
    return list(problems.values())


# How many problems are explained at most: enough to report the first 200 of them in input
# order (validators report in document order), few enough that a journey of 1,000 steps with
# 60 unexpected properties each is refused in milliseconds, not in a second.
_EXPLAINED = 1000


def parse(
    contract: str, document: Any, model: type[M], vocabularies: Vocabularies | None = None
) -> M:
    """Validate ``document`` against ``contract`` and return it as ``model``.

    Raises :class:`AutomiumError` with every problem when the contract rejects it.
    """
    problems = check(contract, document, vocabularies)
    if problems:
        raise AutomiumError(problems)
    return to_model(model, document)


def to_model(model: type[M], document: Any) -> M:
    """Build ``model`` from a document the contract already accepted."""
    try:
        return model.model_validate(document)
    except PydanticValidationError as exc:  # the model is stricter than its contract
        raise AutomiumError(
            Problem(ErrorCode.INVALID_INPUT, str(e["msg"]), pointer(*e["loc"]))
            for e in exc.errors(include_url=False)
        ) from None
