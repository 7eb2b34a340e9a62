"""Contracts loaded and bundled: each one checked, then made self-contained.

A bundled contract has every external ``$ref`` inlined as a local ``$defs`` entry, so a
client needs no resolver. It is what ``generated/automium_contracts/schemas/`` holds, and
what every other form of a contract is derived from.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag, urljoin

import jsonschema_rs
from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

SUFFIX = ".schema.json"

Json = dict[str, Any]


class ContractError(Exception):
    """A contract cannot be used; the message names the file and the reason."""


def contract_name(path: Path) -> str:
    return path.name.removesuffix(SUFFIX)


def load_contracts(folder: Path) -> dict[str, Json]:
    """Read and check every contract, keyed by name (file name without ``.schema.json``)."""
    contracts: dict[str, Json] = {}
    ids: dict[str, str] = {}
    for path in sorted(folder.glob(f"*{SUFFIX}")):
        name = contract_name(path)
        try:
            schema = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise ContractError(
                f"{path.name}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
            ) from None
        if not isinstance(schema, dict):
            raise ContractError(f"{path.name}: a contract must be a JSON object")
        try:
            Draft202012Validator.check_schema(schema)
        except SchemaError as exc:
            where = "/".join(str(p) for p in exc.absolute_path) or "(root)"
            raise ContractError(
                f"{path.name}: not a valid 2020-12 schema at {where}: {exc.message}"
            ) from None
        schema_id = schema.get("$id")
        if not isinstance(schema_id, str) or not schema_id.endswith("/" + path.name):
            raise ContractError(f"{path.name}: $id must be a URI ending in /{path.name}")
        if schema_id in ids:
            raise ContractError(f"{path.name}: $id {schema_id} is also used by {ids[schema_id]}")
        ids[schema_id] = path.name
        contracts[name] = schema
    if not contracts:
        raise ContractError(f"no *{SUFFIX} files in {folder}")
    return contracts


def _pointer_get(document: Json, pointer: str, where: str) -> Json:
    node: Any = document
    for part in filter(None, pointer.split("/")):
        key = part.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, dict) or key not in node:
            raise ContractError(f"{where}: $ref target #{pointer} does not exist")
        node = node[key]
    if not isinstance(node, dict):
        raise ContractError(f"{where}: $ref target #{pointer} is not a schema object")
    return node


class _Bundler:
    """Inline every external ``$ref`` of one contract into its ``$defs``.

    A definition keeps its own name (``common#/$defs/Intent`` becomes ``#/$defs/Intent``); a
    referenced whole document is named by its ``title``. Two different sources claiming one
    name is a contract error rather than a silent rename, so published names stay stable.
    """

    def __init__(self, contracts: Mapping[str, Json], name: str) -> None:
        self.by_id = {schema["$id"]: schema for schema in contracts.values()}
        self.name = name
        self.root = contracts[name]
        self.imported: dict[str, Json] = {}
        self.origin: dict[str, tuple[str, str]] = {
            key: (self.root["$id"], f"/$defs/{key}") for key in self.root.get("$defs", {})
        }

    def bundle(self) -> Json:
        out: Json = self._rewrite(self.root, self.root["$id"])
        if self.imported:
            out["$defs"] = {**out.get("$defs", {}), **dict(sorted(self.imported.items()))}
        return out

    def _local_name(self, doc_id: str, pointer: str) -> str:
        if pointer.startswith("/$defs/") and pointer.count("/") == 2:
            return pointer.removeprefix("/$defs/")
        if pointer in ("", "/"):
            return str(self.by_id[doc_id]["title"])
        raise ContractError(f"{self.name}: cannot bundle $ref into {doc_id}#{pointer}")

    def _rewrite(self, node: Any, base: str) -> Any:
        if isinstance(node, list):
            return [self._rewrite(item, base) for item in node]
        if not isinstance(node, dict):
            return node
        out = {key: self._rewrite(value, base) for key, value in node.items()}
        if isinstance(node.get("$ref"), str):
            out["$ref"] = self._resolve(node["$ref"], base)
        return out

    def _resolve(self, ref: str, base: str) -> str:
        doc_id, fragment = urldefrag(urljoin(base, ref))
        if doc_id not in self.by_id:
            raise ContractError(f"{self.name}: $ref {ref!r} points at an unknown contract")
        if doc_id == self.root["$id"]:
            return f"#{fragment}"
        local = self._local_name(doc_id, fragment)
        claimed = self.origin.setdefault(local, (doc_id, fragment))
        if claimed != (doc_id, fragment):
            raise ContractError(
                f"{self.name}: $defs name {local!r} is used by both "
                f"{claimed[0]}#{claimed[1]} and {doc_id}#{fragment}"
            )
        if local not in self.imported:
            self.imported[local] = {}  # placeholder first: recursive refs terminate
            target = _pointer_get(self.by_id[doc_id], fragment, self.name)
            body = {k: v for k, v in target.items() if k not in ("$schema", "$id", "$defs")}
            self.imported[local] = self._rewrite(body, doc_id)
        return f"#/$defs/{local}"


def still_a_schema(derived: Json) -> None:
    """What regen derives from a valid contract must be a valid 2020-12 schema too: a check
    of regen itself, so jsonschema-rs's metaschema check (milliseconds, not seconds for the
    ~80 derived schemas); a contract's own errors are explained by :func:`load_contracts`."""
    jsonschema_rs.meta.validate(derived)


def bundle(contracts: Mapping[str, Json], name: str) -> Json:
    """The self-contained form of one contract; it must still be a valid schema."""
    bundled: Json = _Bundler(contracts, name).bundle()
    still_a_schema(bundled)
    return bundled


def dump_json(document: Any) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
