"""What the prompts share: their arguments, and the check that a prompt leads to a call its
tool accepts."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any

from automium.errors import AutomiumError, Problem

Arguments = Mapping[str, str]


def accepted_as(
    contract: str,
    call: Mapping[str, Any],
    rules: Callable[[], Iterable[Problem]] = tuple,
) -> None:
    """Refuse the prompt when the tool it leads to would refuse ``call``'s arguments.

    ``call`` holds what the prompt's arguments become in the tool's input; it is checked
    against the tool's own contract (so the prompt applies the same patterns and limits),
    and problems the contract reports elsewhere (properties the prompt does not fill) are
    ignored. When the contract accepts, ``rules`` gives the problems of the tool's domain
    rules. A problem points at the prompt argument it comes from (``/appIds``, not
    ``/appIds/1``: an argument is one string).
    """
    from automium import corpus  # noqa: PLC0415 - the corpus loads on first use
    from automium.validation import check  # noqa: PLC0415

    def ours(problems: Iterable[Problem]) -> list[Problem]:
        return [
            replace(p, path="/" + p.path.split("/")[1])
            for p in problems
            if p.path.split("/")[1:2] and p.path.split("/")[1] in call
        ]

    problems = ours(check(contract, dict(call), corpus.vocabularies())) or ours(rules())
    if problems:
        raise AutomiumError(problems)
