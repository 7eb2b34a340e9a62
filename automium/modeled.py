"""The marker every output carries when it could be mistaken for execution."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from automium import contracts

if TYPE_CHECKING:
    from automium.contracts import Modeled

NOT_EXECUTED = "Nothing was executed: no browser was launched and nothing was persisted."


def modeled(what: str, assumptions: Sequence[str] = ()) -> Modeled:
    """``what`` says what was modeled, in one sentence; the rest is always the same."""
    return contracts.Modeled(
        modeled=True,
        executed=False,
        notice=f"{what} {NOT_EXECUTED}",
        **contracts.present(assumptions=list(assumptions) or None),
    )
