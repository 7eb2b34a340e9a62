"""Load the checked-in corpus once, as it was built.

``scripts/regen.py`` builds ``data/corpus.v1.json`` from the sources and checks it against
``corpus.v1``; the tests check it again, and that every reference journey compiles. At run
time it is loaded and trusted: its models are built straight from the JSON, with no
contract check repeated in every MCP session.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from automium.contracts import Corpus

CORPUS_VERSION = "2026.1"


@cache
def load_corpus() -> Corpus:
    """The owned benchmark corpus v1, loaded on first use."""
    text = (resources.files(__package__) / "data" / "corpus.v1.json").read_text("utf-8")
    return Corpus.model_validate_json(text)
