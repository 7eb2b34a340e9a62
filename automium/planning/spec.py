"""``--planner SPEC``: which planner drives a trial.

======================== ===============================================================
SPEC                     planner
======================== ===============================================================
``scripted-journey``     the journey's steps as written (the oracle)
``random`` / ``random:N`` a random walk over the page's actionable elements, seed N (0)
``heuristic``            the goal's words matched to accessible names
``cmd:ID=COMMAND …``     a command speaking planner-adapter.v1 as JSON lines on stdio,
                         recorded as planner ID (split like a shell line, never run by one)
======================== ===============================================================
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence

from automium.contracts import ErrorCode
from automium.errors import AutomiumError, quoted
from automium.planning.builtin import HeuristicPlanner, RandomPlanner, ScriptedPlanner
from automium.planning.external import CommandPlanner
from automium.planning.trial import Planner

BUILTINS = ("scripted-journey", "random", "random:SEED", "heuristic", "cmd:ID=COMMAND")
_ID = re.compile(r"^[a-z0-9][a-z0-9._-]{0,63}$")


def planner_of(spec: str, *, timeout_s: float = 30.0, env_names: Sequence[str] = ()) -> Planner:
    """The planner ``spec`` names; ``invalid_input`` (with the spellings) when none."""
    if spec == "scripted-journey":
        return ScriptedPlanner()
    if spec == "heuristic":
        return HeuristicPlanner()
    if spec == "random" or spec.startswith("random:"):
        seed = spec.partition(":")[2] or "0"
        if not seed.isdigit() or len(seed) > 18:
            raise _refused(spec, "random:SEED needs a whole number seed")
        return RandomPlanner(int(seed))
    if spec.startswith("cmd:"):
        planner_id, equals, command = spec[4:].partition("=")
        if not equals or not _ID.match(planner_id):
            raise _refused(spec, "cmd:ID=COMMAND needs a planner id (a-z, 0-9, . _ -) and =")
        try:
            argv = shlex.split(command)
        except ValueError as error:
            raise _refused(spec, f"the command does not split: {error}") from None
        if not argv:
            raise _refused(spec, "cmd:ID=COMMAND needs a command")
        reference = {"id": planner_id, "vendor": "external", "model": planner_id}
        return CommandPlanner(argv, reference, timeout_s=timeout_s, env_names=env_names)
    raise _refused(spec, "not a planner")


def _refused(spec: str, why: str) -> AutomiumError:
    return AutomiumError.single(
        ErrorCode.INVALID_INPUT,
        f"--planner {quoted(spec)}: {why}; give one of {', '.join(BUILTINS)}",
        "/planner",
        list(BUILTINS),
    )
