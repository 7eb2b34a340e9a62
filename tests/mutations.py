"""Edits to a copy of a valid document, for tables of invalid inputs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Document = dict[str, Any]
Mutation = Callable[[Document], None]


def _parent(document: Document, path: tuple[str | int, ...]) -> Any:
    parent: Any = document
    for part in path[:-1]:
        parent = parent[part]
    return parent


def set_at(*path: str | int, value: Any) -> Mutation:
    """Set the value at ``path`` (the last part is the key or index to set)."""

    def mutate(document: Document) -> None:
        _parent(document, path)[path[-1]] = value

    return mutate


def drop_at(*path: str | int) -> Mutation:
    """Remove the key or item at ``path``."""

    def mutate(document: Document) -> None:
        del _parent(document, path)[path[-1]]

    return mutate


def append_at(*path: str | int, value: Any) -> Mutation:
    """Append ``value`` to the list at ``path``."""

    def mutate(document: Document) -> None:
        _parent(document, path)[path[-1]].append(value)

    return mutate


def insert_at(*path: str | int, value: Any) -> Mutation:
    """Insert ``value`` before the item at ``path`` (the last part is the index)."""

    def mutate(document: Document) -> None:
        _parent(document, path).insert(path[-1], value)

    return mutate


def all_of(*mutations: Mutation) -> Mutation:
    """Apply ``mutations`` in order: an edit that needs more than one change."""

    def mutate(document: Document) -> None:
        for change in mutations:
            change(document)

    return mutate
