"""Shared fixtures (JSON and Markdown snapshots, the anyio backend) and the Hypothesis budgets.

Property tests without an explicit ``max_examples`` (the differential fuzzing of every tool
above all) run the profile's budget: a small one by default, so a developer runs the suite
often, and the full fuzzing budget in CI (``CI=true``), derandomized so CI sees the same
examples every run; slower properties cap it with :func:`examples`.
``HYPOTHESIS_PROFILE=ci pytest`` runs the CI budget locally. ``make check``, the quick tier,
runs the ``check`` profile: a few derandomized examples of every property, fixed budgets
included (:func:`fixed`).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.json import JSONSnapshotExtension
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode
from syrupy.types import PropertyFilter, PropertyMatcher, SerializableData, SerializedData

settings.register_profile("dev", max_examples=25)
settings.register_profile("ci", max_examples=1500, derandomize=True, database=None)
settings.register_profile("check", max_examples=10, derandomize=True, database=None)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or (
    "ci" if os.environ.get("CI") == "true" else "dev"
)
settings.load_profile(PROFILE)


def examples(at_most: int) -> int:
    """The profile's number of examples, capped for a property that needs fewer than the
    full fuzzing budget even in CI."""
    return min(settings().max_examples, at_most)


def fixed(count: int) -> int:
    """``count`` examples whatever the profile, but the quick tier's few under ``make check``."""
    return examples(count) if PROFILE == "check" else count


@pytest.fixture
def snapshot_json(snapshot: SnapshotAssertion) -> SnapshotAssertion:
    return snapshot.use_extension(JSONSnapshotExtension)


class MermaidMarkdownExtension(SingleFileSnapshotExtension):
    """One ``.md`` file per snapshot holding a Mermaid drawing in a fenced block, so that
    GitHub draws the graph when a reviewer opens the file in a PR."""

    file_extension = "md"
    _write_mode = WriteMode.TEXT

    def serialize(
        self,
        data: SerializableData,
        *,
        exclude: PropertyFilter | None = None,
        include: PropertyFilter | None = None,
        matcher: PropertyMatcher | None = None,
    ) -> SerializedData:
        del exclude, include, matcher  # filters pick properties; a drawing has none
        if not isinstance(data, str):
            raise TypeError(f"a Markdown snapshot takes Mermaid text, not {type(data).__name__}")
        drawing = data.removesuffix("\n")
        return f"```mermaid\n{drawing}\n```\n"


@pytest.fixture
def snapshot_markdown(snapshot: SnapshotAssertion) -> SnapshotAssertion:
    return snapshot.use_extension(MermaidMarkdownExtension)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
