"""What a step of ``journey.v1`` holds, by its kind: the one place code asks a ``Step``
for a field that some kinds have and others lack, so the type checker sees every kind."""

from __future__ import annotations

from automium.contracts import (
    FillStep,
    GoBackStep,
    NavigateStep,
    SelectOptionStep,
    SemanticLocator,
    SnapshotRef,
    Step,
)


def target_of(step: Step) -> SemanticLocator | SnapshotRef | None:
    """The element ``step`` acts on; ``None`` for a step on the page (navigate, go back, a
    key or a scroll without a target)."""
    if isinstance(step, NavigateStep | GoBackStep):
        return None
    return step.target


def secret_ref_of(step: Step) -> str | None:
    """The credential a fill types, named by its ref; ``None`` for any other step."""
    return step.secret_ref if isinstance(step, FillStep) else None


def value_of(step: Step) -> str | None:
    """The text a fill types or the option a select picks; ``None`` for a secret's fill."""
    if isinstance(step, FillStep | SelectOptionStep):
        return step.value
    return None
