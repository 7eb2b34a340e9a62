"""The whole generated package, written into a folder, from the contracts.

``generated/automium_contracts/`` holds, for the runtime:

* ``models/`` and ``index.py``: the pydantic models, one module per contract
  (:mod:`automium_build.models`);
* ``schemas/``: every contract bundled (:mod:`automium_build.bundling`), which the
  contract resources serve and the models are named from;
* ``checks/``: every contract's validation-only projection
  (:mod:`automium_build.projection`), which the server's validator compiles;
* ``tool-inputs/`` and ``tool-outputs/``: the contracts tools take and return, as
  ``tools/list`` publishes them (:mod:`automium_build.published`). Only those: nothing
  reads a published form of any other contract.
"""

from __future__ import annotations

from pathlib import Path

from automium_build.bundling import Json, bundle, dump_json, load_contracts
from automium_build.models import HEADER, model_index, write_models
from automium_build.projection import project
from automium_build.published import publish, publish_output

# The contracts of the tools of automium/capabilities.py, which the build cannot import (it
# rewrites the models that table's package loads); a test holds the two lists equal.
TOOL_INPUTS = frozenset(
    {
        "artifact-manifest-input.v1",
        "compare-planners-input.v1",
        "journey.v1",
        "list-apps-input.v1",
        "list-fixtures-input.v1",
        "replay-summary-input.v1",
        "run-submission-input.v1",
    }
)
TOOL_OUTPUTS = frozenset(
    {
        "app-catalog.v1",
        "artifact-manifest.v1",
        "benchmark-report.v1",
        "fixture-catalog.v1",
        "journey-compilation.v1",
        "replay-summary.v1",
        "run-submission.v1",
    }
)

INIT = (
    HEADER + '"""Models and bundled schemas generated from ``contracts/``.\n\n'
    "Import them through ``automium.contracts`` only; this package is an implementation\n"
    'detail of the generator.\n"""\n'
)


def write_package(out: Path, contracts_folder: Path, root: Path) -> dict[str, Json]:
    """Write the package generated from ``contracts_folder`` into ``out`` (an empty folder);
    returns the bundled contracts. ``root`` holds the generator's options."""
    contracts = load_contracts(contracts_folder)
    # Bundling resolves every $ref first, so a broken one is reported by name here instead
    # of sending the generator off to fetch it.
    bundles = {name: bundle(contracts, name) for name in contracts}
    models = out / "models"
    write_models(models, root, contracts)
    (out / "__init__.py").write_text(INIT, encoding="utf-8")
    (out / "index.py").write_text(model_index(models), encoding="utf-8")
    (out / "py.typed").write_text("", encoding="utf-8")
    # Contracts whose root is a document, by the name a bundle gives their definition.
    documents = {str(c["title"]): n for n, c in contracts.items() if "properties" in c}
    for folder in ("schemas", "checks", "tool-inputs", "tool-outputs"):
        (out / folder).mkdir()
    for name, bundled in bundles.items():
        checks = project(name, bundled)
        forms = {"schemas": bundled, "checks": checks}
        if name in TOOL_INPUTS:
            others = {t: n for t, n in documents.items() if n != name}
            forms["tool-inputs"] = publish(bundled, others)
        if name in TOOL_OUTPUTS:
            forms["tool-outputs"] = publish_output(checks)
        for folder, schema in forms.items():
            (out / folder / f"{name}.json").write_text(dump_json(schema), "utf-8")
    return bundles
