"""A tool's answer as the server makes it, read through the model of its output contract."""

from __future__ import annotations

from typing import TypeVar, cast

from pydantic import BaseModel

from automium.capabilities import Capability
from automium.contracts import model_for

Out = TypeVar("Out", bound=BaseModel)


def answered(capability: Capability[Out], arguments: object) -> Out:
    """The output of ``capability`` for ``arguments``, by :meth:`Capability.answer` (what a
    ``tools/call`` runs), as its model; raises :class:`~automium.errors.AutomiumError` as a
    call refuses."""
    _, document = capability.answer(arguments)
    return cast(Out, model_for(capability.output_contract).model_validate(document))
