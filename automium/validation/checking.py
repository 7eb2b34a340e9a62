"""The verdict: does a contract accept a document? Compiled validators, one per contract.

Each validator is jsonschema-rs compiled from the contract's validation-only projection
(``contracts.check_schema``: the bundled contract without annotations, its discriminated
unions dispatching on their tag), so a valid document costs microseconds and a step is
checked against the one branch its intent names. The projection is generated and proven
equivalent to the contract by the tests, which judge with the reference ``jsonschema``.

Documents must hold JSON values only; :func:`automium.limits.check_arguments` refuses
anything else before a tool's arguments get here.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

import jsonschema_rs

from automium.contracts import check_schema

Error = jsonschema_rs.ValidationError


@cache
def validator(contract: str) -> jsonschema_rs.Validator:
    # ECMA-262 regular expressions, as JSON Schema specifies: a final "$" never matches
    # before a trailing newline (Python's re would).
    return jsonschema_rs.Draft202012Validator(dict(check_schema(contract)))


def is_valid(contract: str, document: Any) -> bool:
    """Whether ``contract`` accepts ``document``."""
    return validator(contract).is_valid(document)


def errors(contract: str, document: Any) -> Iterator[Error]:
    """Every error of ``document`` against ``contract``, as the validator finds them."""
    return validator(contract).iter_errors(document)
