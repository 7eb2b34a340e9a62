#!/usr/bin/env python3
"""Regenerate ``generated/automium_contracts/`` and the corpus from their sources.

From the contracts in ``contracts/``: the models, bundled schemas, validation projections
and published tool schemas (:mod:`automium_build.package` says which is which). From the
corpus sources in ``automium/corpus/source/``: ``automium/corpus/data/corpus.v1.json``,
checked against the freshly bundled ``corpus.v1``. The work is the build package's,
``automium_build/``; this command only decides where it goes.

Usage::

    scripts/regen.py           # rewrite generated/ (wiped first: stale modules never linger)
    scripts/regen.py --check   # write nothing; print a diff and exit 1 when generated/ is stale

Exit codes: 0 up to date / written, 1 stale (--check), 2 a contract is invalid.
"""

from __future__ import annotations

import argparse
import difflib
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a file, ``scripts/`` is on the path, not the root
    sys.path.insert(0, str(ROOT))

from automium_build.bundling import ContractError  # noqa: E402
from automium_build.corpus import build_corpus  # noqa: E402
from automium_build.package import write_package  # noqa: E402

CONTRACTS = ROOT / "contracts"
PACKAGE = ROOT / "generated" / "automium_contracts"
CORPUS_SOURCE = ROOT / "automium" / "corpus" / "source"
CORPUS = ROOT / "automium" / "corpus" / "data" / "corpus.v1.json"


def generate(out: Path) -> str:
    """Write the whole package into ``out`` (an empty folder); returns the corpus text."""
    bundles = write_package(out, CONTRACTS, ROOT)
    return build_corpus(CORPUS_SOURCE, bundles["corpus.v1"])


def _files(folder: Path) -> Iterator[Path]:
    for path in sorted(folder.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            yield path.relative_to(folder)


def diff_trees(expected: Path, actual: Path) -> str:
    """A unified diff from ``actual`` (on disk) to ``expected`` (freshly generated)."""
    chunks: list[str] = []
    names = sorted(set(_files(expected)) | set(_files(actual)))
    for rel in names:
        new, old = expected / rel, actual / rel
        new_lines = new.read_text("utf-8").splitlines(keepends=True) if new.exists() else []
        old_lines = old.read_text("utf-8").splitlines(keepends=True) if old.exists() else []
        if new_lines != old_lines or new.exists() != old.exists():
            label = f"generated/automium_contracts/{rel}"
            chunks.extend(difflib.unified_diff(old_lines, new_lines, label, label))
    return "".join(chunks)


def _diff_corpus(fresh: str) -> str:
    old = CORPUS.read_text("utf-8").splitlines(keepends=True) if CORPUS.exists() else []
    label = str(CORPUS.relative_to(ROOT))
    return "".join(difflib.unified_diff(old, fresh.splitlines(keepends=True), label, label))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 when generated/ is stale"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="automium-regen-") as scratch:
        fresh = Path(scratch) / "automium_contracts"
        fresh.mkdir()
        try:
            corpus = generate(fresh)
        except ContractError as exc:
            print(f"regen: contract error: {exc}", file=sys.stderr)
            return 2
        if args.check:
            drift = diff_trees(fresh, PACKAGE) + _diff_corpus(corpus)
            if drift:
                sys.stdout.write(drift)
                print("regen: generated/ is stale; run scripts/regen.py", file=sys.stderr)
                return 1
            print("regen: generated/ is up to date")
            return 0
        shutil.rmtree(PACKAGE, ignore_errors=True)
        shutil.copytree(fresh, PACKAGE)
        CORPUS.write_text(corpus, "utf-8")
    print(f"regen: wrote {PACKAGE.relative_to(ROOT)} and {CORPUS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
