"""Load the checked-in corpus once, and refuse a corpus that breaks its own contract."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from automium.contracts import Corpus
from automium.validation import parse

CORPUS_VERSION = "2026.1"


@cache
def load_corpus() -> Corpus:
    """The owned benchmark corpus v1, validated against ``corpus.v1`` on first use."""
    text = (resources.files(__package__) / "data" / "corpus.v1.json").read_text("utf-8")
    return parse("corpus.v1", json.loads(text), Corpus)
