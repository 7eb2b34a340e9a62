"""The contracts' vocabularies are the code's: under ``automium/`` no string literal stands
in for a value of ``EventType`` (replay-event.v1) or ``Intent`` (common), so the type
checker catches an event type or an intent the contracts do not have, and no step is
typed ``Any``. Docstrings are prose and may name the values; so may ``__all__``, whose
strings are names of this code, not values of a contract."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

from automium.contracts import EventType, Intent

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "automium"
VALUES = frozenset({e.value for e in EventType} | {i.value for i in Intent})


def _prose(tree: ast.AST) -> set[int]:
    """The ids of the docstrings' and ``__all__``'s string nodes."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
        elif isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            found.update(id(n) for n in ast.walk(node.value))
    return found


def vocabulary_literals(source: str) -> list[tuple[int, str]]:
    """(line, value) of every string literal equal to an event type or an intent."""
    tree = ast.parse(source)
    prose = _prose(tree)
    return sorted(
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value in VALUES
        and id(node) not in prose
    )


def any_steps(source: str) -> list[int]:
    """The lines of every parameter named ``step`` annotated ``Any``."""
    return sorted(
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.arg)
        and node.arg == "step"
        and node.annotation is not None
        and ast.unparse(node.annotation) in ("Any", "typing.Any")
    )


@cache
def _sources() -> dict[str, str]:
    return {str(p.relative_to(ROOT)): p.read_text("utf-8") for p in sorted(PACKAGE.rglob("*.py"))}


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ('if step["intent"] == "fill":\n    pass', [(1, "fill")]),
        ('emit(lane, "page.loaded", {})', [(1, "page.loaded")]),
        ('def f():\n    """A fill, then page.loaded."""\n    return "fill"', [(3, "fill")]),
        ('"""fill"""\n__all__ = ["check", "run"]', []),
        ('x = f"{intent} needs a field"', []),
    ],
)
def test_the_scanner_finds_a_vocabulary_value_written_as_a_string(
    source: str, expected: list[tuple[int, str]]
) -> None:
    assert vocabulary_literals(source) == expected


def test_the_scanner_finds_a_step_typed_any() -> None:
    assert any_steps("def f(step: Any, other: Any) -> None: ...") == [1]
    assert any_steps("def f(step: Step) -> None: ...") == []


def test_no_string_stands_in_for_an_event_type_or_an_intent() -> None:
    found = [
        f"{path}:{line} {value!r}"
        for path, source in _sources().items()
        for line, value in vocabulary_literals(source)
    ]

    assert _sources()
    assert found == []


def test_no_step_is_typed_any() -> None:
    found = [f"{path}:{line}" for path, source in _sources().items() for line in any_steps(source)]

    assert found == []
