"""The one facade over the generated contract package.

Everything generated from ``contracts/`` (pydantic models and bundled schemas) is reached
through here; nothing else imports ``automium_contracts``, so a change in the generator's
module layout touches this file only.

Models are imported on first use (PEP 562 ``__getattr__``), found through the index regen
writes (``automium_contracts.index``): serving ``tools/list`` needs only the bundled schemas.
This holds the cold-start budget (1.10x a bare SDK server): measured on 2026-12-03, 20
interleaved starts each on a loaded 2-core VM, cold start was 0.96x bare with models loaded
on first use and 1.12x with every model imported at start-up. A new contract's models need
no edit here.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

import pydantic_core
from automium_contracts.index import HOMES
from pydantic import BaseModel

if TYPE_CHECKING:
    # Every generated model, for the type checker; at run time __getattr__ imports them.
    from automium_contracts.index import *  # noqa: F403

__all__ = [  # noqa: PLE0604 - the models' names are generated; the rest are this module's
    *HOMES,
    "bundled_schema",
    "bundled_schema_text",
    "check_schema",
    "contract_names",
    "model_for",
    "present",
    "to_document",
    "tool_input_schema",
    "tool_output_schema",
    "tool_schema_text",
]

_PACKAGE = "automium_contracts"


def __getattr__(name: str) -> Any:
    module = HOMES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{_PACKAGE}.models.{module}"), name)
    globals()[name] = value  # later lookups skip __getattr__
    return value


@cache
def contract_names() -> tuple[str, ...]:
    """Names of every contract with a bundled schema, e.g. ``"journey.v1"``, sorted."""
    folder = resources.files(_PACKAGE) / "schemas"
    return tuple(
        sorted(
            entry.name.removesuffix(".json")
            for entry in folder.iterdir()
            if entry.name.endswith(".json")
        )
    )


def _read(folder: str, name: str) -> str:
    if name not in contract_names():
        raise KeyError(name)
    return (resources.files(_PACKAGE) / folder / f"{name}.json").read_text(encoding="utf-8")


@cache
def bundled_schema_text(name: str) -> str:
    """The bundled schema of contract ``name``, byte for byte as generated."""
    return _read("schemas", name)


@cache
def bundled_schema(name: str) -> Mapping[str, Any]:
    """The bundled schema of contract ``name``, parsed once (treat it as read-only)."""
    schema: dict[str, Any] = json.loads(bundled_schema_text(name))
    return schema


@cache
def tool_schema_text(name: str, direction: str) -> str:
    """Contract ``name`` as a tool publishes it, for its ``"input"`` or ``"output"``: the
    text, to parse a copy of its own for each caller (three times as fast as a deep copy)."""
    return _read(f"tool-{direction}s", name)


@cache
def tool_input_schema(name: str) -> Mapping[str, Any]:
    """Contract ``name`` as a tool publishes it for its input (treat it as read-only)."""
    schema: dict[str, Any] = json.loads(tool_schema_text(name, "input"))
    return schema


@cache
def tool_output_schema(name: str) -> Mapping[str, Any]:
    """Contract ``name`` as a tool publishes it for its output (treat it as read-only)."""
    schema: dict[str, Any] = json.loads(tool_schema_text(name, "output"))
    return schema


@cache
def check_schema(name: str) -> Mapping[str, Any]:
    """The validation-only projection of contract ``name`` (annotations dropped, unions
    dispatched on their tag), parsed once (treat it as read-only)."""
    schema: dict[str, Any] = json.loads(_read("checks", name))
    return schema


@cache
def model_for(contract: str) -> type[BaseModel]:
    """The model of a contract's root document (``common`` has none: it is only $defs).

    The generator names the module after the file and the class after the ``title``.
    """
    module = contract.replace("-", "_").replace(".", "_") + "_schema"
    model: type[BaseModel] = getattr(
        importlib.import_module(f"{_PACKAGE}.models.{module}"),
        bundled_schema(contract)["title"],
    )
    return model


def to_document(model: BaseModel) -> dict[str, Any]:
    """A model as its contract spells it on the wire: camelCase, absent fields left out.

    Fields nobody set are left out; a field set to ``None`` is written ``null``, which only
    a nullable property accepts (a metric the data cannot support). So code that builds an
    output leaves an optional field out rather than passing ``None`` (see :func:`present`).
    """
    document: dict[str, Any] = model.model_dump(mode="json", by_alias=True, exclude_unset=True)
    return document


def to_json(document: Mapping[str, Any]) -> str:
    """A document's JSON text without spaces: a model reads every byte an answer sends.

    pydantic-core writes it in about 40% of json.dumps' time (a 9 KB comparison: 24 µs
    against 60). The two differ only in exponents (``1e-7``, not ``1e-07``), which no v1
    output has; a string no UTF-8 can carry (a lone surrogate, which only an in-process
    caller can pass) is left to json.dumps.
    """
    try:
        return pydantic_core.to_json(document).decode()
    except pydantic_core.PydanticSerializationError:
        return json.dumps(document, ensure_ascii=False, separators=(",", ":"))


def present(**fields: Any) -> dict[str, Any]:
    """``fields`` without the ones that are ``None``: the optional fields to set."""
    return {name: value for name, value in fields.items() if value is not None}
