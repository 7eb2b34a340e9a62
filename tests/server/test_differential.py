"""Every tool and prompt, fed generated, mutated and hostile input, answers as a client
expects: the tool accepts exactly what its contract accepts, and nothing breaks it.

Tools. Hypothesis draws arguments from the tool's contract (:func:`tests.strategies.from_schema`
over the bundled input contract, whose named documents, such as a journey given whole, are
inlined; ids of the corpus are drawn as often as made-up ones) or among its successes
(``tests/cases.py`` and :func:`tests.safety.crafted.full_successes`, which set every
optional field); a second test
makes one hostile change at one position (:func:`tests.strategies.hostile`: type confusion,
a long string, deep nesting, an array or object past any limit, a number past any bound,
or a :func:`tests.strategies.mutated` change: a property dropped, added or replaced by junk,
an array emptied or grown); a third puts a value of each other JSON type in every field of
a full success, in turn (:func:`tests.strategies.type_confusions`). Each call goes through
:func:`automium.mcp_server.tools.call_result`, where any exception would reach a client as
-32603 with a traceback on stderr. A reference validator (jsonschema, with ECMA-262 ``$``,
``\\s`` and ``\\S`` as the 2020-12 dialect specifies) judges the contract, and the answer
must be:

- a success whose structured content the output contract accepts, with a one-line summary
  and the same document as JSON text, only for arguments the contract accepts; or
- an ``isError`` result whose document ``tool-error.v1`` accepts (so its code is of the
  vocabulary and its message, path and ``allowed`` list within the contract's limits); for
  arguments the contract accepts, only with codes of the tool's domain rules
  (:attr:`tests.cases.ToolCases.corpus_rules`: what no schema can state);
- and, for a hostile change: past the nesting or entries limit, exactly ``limit_exceeded``
  at ``""`` (and that problem for nothing else); a value of the wrong type refused by a
  problem at it, at a container of it or inside it, never ``limit_exceeded`` at it (a type
  error is ``invalid_input`` or the code of the value's definition).

The published input schema (``tools/list``) is the contract in lean form: it must accept
everything the contract accepts (it names a whole other document instead of inlining it).

Prompts. :func:`tests.strategies.hostile_prompt_arguments` replaces one or two arguments of a
prompt that renders with hostile text (long, bracketed, listed, fenced, numeric-looking) or
drops one. The answer must be a text that stays proportionate to its arguments (the
2,000 planners a 20 KB argument once listed made a 145 KB prompt), keeps the
evidence whole inside one fence and offers only a ready-made call its tool's contract
accepts; or -32602 whose data ``tool-error.v1`` accepts, with a message within its limit.

The number of examples is the Hypothesis profile's (``tests/conftest.py``): 25 by default,
1,500 in CI. Runs are derandomized; ``pytest -s`` prints what each test saw.
"""

from __future__ import annotations

import collections
import json
import re
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

import jsonschema_rs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError
from jsonschema.protocols import Validator
from mcp import MCPError, types

from automium import corpus
from automium.capabilities import BY_NAME
from automium.contracts import bundled_schema
from automium.guidance import BY_NAME as GUIDES
from automium.limits import MAX_ARGUMENTS_SIZE, MAX_DEPTH, MAX_ENTRIES
from automium.mcp_server import prompts, tools
from automium.validation import check
from tests.cases import TOOLS, error_problems
from tests.safety.crafted import fenced_blocks, full_successes, prompt_renders
from tests.strategies import (
    INJECTED_HEADING,
    Hostile,
    from_schema,
    hostile,
    hostile_prompt_arguments,
    type_confusions,
    with_vocabularies,
)

# ECMA-262 white space and line terminators: Python's \s also takes \x1c-\x1f and \x85,
# and leaves out U+FEFF.
_ECMA_SPACE = "\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"


def _python_regex(pattern: str) -> str:
    """An ECMA-262 pattern of the contracts as a Python regex: ``$`` ends the string only,
    ``\\s`` and ``\\S`` are ECMA-262's (the contracts use neither inside a class)."""
    pattern = re.sub(r"\$$", r"\\Z", pattern)
    return pattern.replace("\\S", f"[^{_ECMA_SPACE}]").replace("\\s", f"[{_ECMA_SPACE}]")


def _ecma_pattern(
    _validator: Any, pattern: str, instance: Any, _schema: Any
) -> Iterator[ValidationError]:
    if isinstance(instance, str) and not re.search(_python_regex(pattern), instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


Reference = validators.extend(Draft202012Validator, {"pattern": _ecma_pattern})  # type: ignore[no-untyped-call]
# Keywords that judge a value without descending into it: checked first, the reference
# validator's first error comes before it walks 1,000 items (it evaluates in key order).
_SHALLOW = ("type", "const", "enum", "maxItems", "minItems", "maxLength", "minLength", "maximum")


def _shallow_first(schema: Any) -> Any:
    """``schema`` with the keywords of every subschema reordered, shallow ones first (the
    same schema: JSON Schema keywords do not depend on their order)."""
    if isinstance(schema, list):
        return [_shallow_first(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    order = sorted(schema, key=lambda k: _SHALLOW.index(k) if k in _SHALLOW else len(_SHALLOW))
    return {key: _shallow_first(schema[key]) for key in order}


def reference(schema: Any) -> Validator:
    validator: Validator = Reference(_shallow_first(schema))
    return validator


pytestmark = pytest.mark.fuzz

PUBLISHED = {tool.name: tool for tool in tools.list_tools_result().tools}
FUZZ = settings(
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
)
LIMIT_AT_THE_TOP = ("limit_exceeded", "")
MESSAGE_LIMIT = 2000  # tool-error.v1: a message is Text, at most 2,000 characters
RENDER_BASE = 20_000  # characters: the longest prompt text for short arguments is ~11,000
# A prompt quotes each argument at most once, but fences evidence with a run of backticks
# longer than any in it: 20,000 backticks of evidence take 60,000 characters of text.
RENDER_PER_CHARACTER = 3


def _shape(value: Any) -> tuple[int, int]:
    """The deepest nesting and the most entries of one container in ``value`` (iterative:
    a hostile value may be 1,000 levels deep)."""
    deepest = widest = 0
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict | list):
            deepest, widest = max(deepest, depth), max(widest, len(node))
            stack.extend(
                (item, depth + 1) for item in (node.values() if isinstance(node, dict) else node)
            )
    return deepest, widest


# What breaks a line in a message a model reads: a caller's value quoted raw could then
# pass for the server's own next line.
LINE_BREAKS = frozenset("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")


def _no_line_breaks(error: dict[str, Any]) -> None:
    """Every message of a tool error quotes what it names escaped, on one line."""
    for problem in [error, *error.get("problems", [])]:
        assert not LINE_BREAKS & set(problem["message"]), problem["message"]


def _related(path: str, pointer: str) -> bool:
    """Whether a problem at ``path`` is about the value at ``pointer``: the value itself, a
    container of it, or something inside it."""
    return path == pointer or pointer.startswith(path + "/") or path.startswith(pointer + "/")


class Judge:
    """Judges one tool's answers to arguments hypothesis draws, and counts what it saw."""

    def __init__(self, name: str, accepts: Callable[[Any], bool] | None = None) -> None:
        capability = BY_NAME[name]
        self.name = name
        self.published = reference(PUBLISHED[name].input_schema)
        self.accepts = accepts or reference(bundled_schema(capability.input_contract)).is_valid
        self.output_contract = capability.output_contract
        self.domain_rules = TOOLS[name].corpus_rules
        self.seen = {"accepted": 0, "domain rule": 0, "rejected": 0, "over a limit": 0}
        self.kinds: collections.Counter[str] = collections.Counter()

    def fuzz(
        self,
        drawn: st.SearchStrategy[Any],
        what: str,
        *,
        schema_valid: bool = False,
        at_least: int = 0,
    ) -> dict[str, int]:
        """Judge arguments ``drawn`` by hypothesis; how many of each outcome it saw."""

        @settings(FUZZ, max_examples=max(settings().max_examples, at_least))
        @given(drawn)
        def differential(drawn: Any) -> None:
            if isinstance(drawn, Hostile):
                self.kinds[drawn.kind] += 1
                self.judge(drawn.arguments, change=drawn)
            else:
                self.judge(drawn, schema_valid=schema_valid)

        differential()
        print(f"\n{self.name} {what}: {self.seen}")
        if self.kinds:
            print(f"{self.name} {what}, changes drawn per kind: {dict(sorted(self.kinds.items()))}")
        return self.seen

    def judge(
        self, arguments: Any, *, schema_valid: bool = False, change: Hostile | None = None
    ) -> None:
        depth, entries = _shape(arguments)
        over_a_limit = depth > MAX_DEPTH or entries > MAX_ENTRIES
        result = tools.call_result(self.name, arguments)  # an exception: -32603 for a client
        document = result.structured_content
        assert document is not None
        if over_a_limit:  # refused before any validator (and too deep for the reference)
            assert result.is_error, arguments
            assert error_problems(document) == [LIMIT_AT_THE_TOP]
            self.seen["over a limit"] += 1
            return
        # On the wire, absent and null arguments both mean "no arguments".
        accepted = self.accepts({} if arguments is None else arguments)
        assert accepted or not schema_valid, arguments  # the generator is right
        assert self.published.is_valid({} if arguments is None else arguments) or not accepted
        if not result.is_error:
            self._success(document, result, accepted=accepted)
            return
        assert check("tool-error.v1", document) == [], document
        _no_line_breaks(document)
        problems = error_problems(document)
        if change is not None and change.kind == "non-finite":  # no JSON value: refused at it
            assert problems == [("invalid_input", change.pointer)], (change, problems)
            self.seen["rejected"] += 1
            return
        if problems == [LIMIT_AT_THE_TOP] and self._over_the_size(arguments):
            # Past 1 MiB of JSON: no schema states that limit, so the contract may accept it.
            self.seen["over a limit"] += 1
            return
        assert LIMIT_AT_THE_TOP not in problems, problems
        if accepted:
            assert {code for code, _ in problems} <= self.domain_rules, (arguments, problems)
        elif change is not None and change.kind == "type":
            at_it = [code for code, path in problems if path == change.pointer]
            assert "limit_exceeded" not in at_it, (change, problems)
            assert any(_related(path, change.pointer) for _, path in problems), (change, problems)
        self.seen["domain rule" if accepted else "rejected"] += 1

    def _success(
        self, document: dict[str, Any], result: types.CallToolResult, *, accepted: bool
    ) -> None:
        assert accepted, document
        assert check(self.output_contract, document) == [], document
        summary, text = (block.text for block in result.content)  # type: ignore[union-attr]
        assert summary
        assert "\n" not in summary
        assert text == json.dumps(document, ensure_ascii=False, separators=(",", ":"))
        self.seen["accepted"] += 1

    @staticmethod
    def _over_the_size(arguments: Any) -> bool:
        # The limit counts characters of compact JSON without escapes, a lower bound.
        compact = json.dumps(arguments, separators=(",", ":"), ensure_ascii=False)
        return len(compact) > MAX_ARGUMENTS_SIZE


@cache
def _vocabularies() -> dict[str, tuple[str, ...]]:
    """Ids of the corpus, by the contract definition that names them."""
    routes = {route for app in corpus.app_ids() for route in corpus.route_ids(app)}
    return {**corpus.vocabularies(), "RouteId": tuple(sorted(routes))}


def schema_valid_arguments(name: str, *, successes_per_drawn: int = 1) -> st.SearchStrategy[Any]:
    """Arguments the contract of ``name`` accepts: drawn from the contract, or a success
    (generated ids are mostly unknown to the corpus; a success reaches further), the
    successes ``successes_per_drawn`` times as often."""
    successes = st.sampled_from([*TOOLS[name].successes.values(), *full_successes()[name]])
    contract = bundled_schema(BY_NAME[name].input_contract)
    drawn = from_schema(with_vocabularies(contract, _vocabularies()))
    # one_of() would weigh a repeated branch once: pick the branch by a number instead.
    return st.integers(0, successes_per_drawn).flatmap(lambda i: successes if i else drawn)


def changed_arguments(name: str) -> st.SearchStrategy[Any]:
    """What the hostile test changes: mostly successes, whose every field a
    tool reads (drawing a document costs more than judging it, and a change of a drawn
    one mostly meets an unknown id first)."""
    return schema_valid_arguments(name, successes_per_drawn=3)


@pytest.mark.parametrize("name", list(TOOLS))
def test_arguments_the_contract_accepts_are_answered_as_it_says(name: str) -> None:
    seen = Judge(name).fuzz(schema_valid_arguments(name), "schema-valid", schema_valid=True)
    assert seen["accepted"] > 0


@pytest.mark.parametrize("name", list(TOOLS))
def test_hostile_arguments_get_a_success_or_a_tool_error_with_a_stable_code(name: str) -> None:
    # At least 40 even in a quick run: eight kinds of change, and some must pass a limit.
    seen = Judge(name).fuzz(hostile(changed_arguments(name)), "hostile", at_least=40)
    assert seen["rejected"] > 0
    assert seen["over a limit"] > 0


@pytest.mark.parametrize("name", list(TOOLS))
def test_a_value_of_the_wrong_type_in_any_field_is_refused_at_it(name: str) -> None:
    # Every field of a success that sets every optional property, each other JSON type in
    # turn: a table, not a sample. Judged with jsonschema-rs over the bundled contract
    # (thousands of calls; the reference validator would take a minute).
    contract = dict(bundled_schema(BY_NAME[name].input_contract))
    judge = Judge(name, accepts=jsonschema_rs.Draft202012Validator(contract).is_valid)
    for success in full_successes()[name]:
        for change in type_confusions(success):
            judge.judge(change.arguments, change=change)
    print(f"\n{name} type confusions: {judge.seen}")
    assert judge.seen["rejected"] > 0


# -- prompts ---------------------------------------------------------------------------------

# The tool whose ready-made call a prompt's text offers, in a fenced JSON block.
READY_MADE: dict[str, str] = {
    "debug_failed_run": "automium_get_replay_summary",
    "compare_planner_backends": "automium_compare_planners",
}


def _objects(blocks: list[str]) -> Iterator[dict[str, Any]]:
    for block in blocks:
        try:
            value = json.loads(block)
        except (ValueError, RecursionError):  # evidence may be "[[[[…", past the stack
            continue
        if isinstance(value, dict):
            yield value


class PromptJudge:
    """Judges one prompt's answers to hostile arguments, and counts what it saw."""

    def __init__(self, name: str) -> None:
        self.name = name
        tool = READY_MADE.get(name)
        self.ready_made = reference(bundled_schema(BY_NAME[tool].input_contract)) if tool else None
        self.seen = {"rendered": 0, "refused": 0}

    def judge(self, arguments: dict[str, str]) -> None:
        try:
            result = prompts.get(self.name, arguments)  # an exception: -32603 for a client
        except MCPError as refused:
            error = refused.error
            assert error.code == types.INVALID_PARAMS
            assert check("tool-error.v1", error.data) == [], error.data
            assert len(error.message) <= MESSAGE_LIMIT
            self.seen["refused"] += 1
            return
        (message,) = result.messages
        assert isinstance(message.content, types.TextContent)
        text = message.content.text
        given = sum(len(k) + len(v) for k, v in arguments.items())
        assert len(text) <= RENDER_BASE + RENDER_PER_CHARACTER * given, (len(text), given)
        blocks = fenced_blocks(text)
        outside = text
        for block in sorted(blocks, key=len, reverse=True):
            outside = outside.replace(block, "")
        assert INJECTED_HEADING not in outside, text  # a caller's text never passes for ours
        if "evidence" in arguments:
            assert arguments["evidence"] in blocks
        if self.ready_made is not None:
            calls = [c for c in _objects(blocks) if c != _parsed(arguments.get("evidence"))]
            assert calls, text
            for call in calls:
                assert self.ready_made.is_valid(call), call
        self.seen["rendered"] += 1


def _parsed(text: str | None) -> Any:
    try:
        return json.loads(text or "")
    except (ValueError, RecursionError):
        return None


def _renders(name: str) -> list[dict[str, str]]:
    return [arguments for _, prompt, arguments in prompt_renders() if prompt == name]


@pytest.mark.parametrize("name", list(GUIDES))
def test_hostile_prompt_arguments_get_a_text_or_invalid_params(name: str) -> None:
    judge = PromptJudge(name)
    names = tuple(argument for argument, _ in GUIDES[name].arguments)
    drawn = st.sampled_from(_renders(name)).flatmap(
        lambda renders: hostile_prompt_arguments(renders, names)
    )

    # At least 100 even in a quick run: fewer draw no refusal, or no render, of
    # compare_planner_backends.
    @settings(FUZZ, max_examples=max(FUZZ.max_examples, 100))
    @given(drawn)
    def differential(arguments: dict[str, str]) -> None:
        judge.judge(arguments)

    differential()
    print(f"\n{name} hostile: {judge.seen}")
    assert judge.seen["refused"] > 0
    assert judge.seen["rendered"] > 0
