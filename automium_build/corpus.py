"""The corpus document the server loads, built from its sources and checked against
``corpus.v1``.

The sources are in ``automium/corpus/source/``: ``corpus.json`` (apps, fixtures,
environment profiles), ``journeys/<app>.json`` (the reference journeys of each app) and
``pages/<app>.aria`` (its page models, in the notation of :mod:`automium_build.aria`).
"""

from __future__ import annotations

import json
from pathlib import Path

from jsonschema import Draft202012Validator

from automium_build.aria import AriaError, parse_pages
from automium_build.bundling import ContractError, Json, dump_json


def corpus_document(folder: Path) -> Json:
    """The corpus document from its sources in ``folder``, before any validation.

    What can be derived is: a fixture's ``referenceJourneyIds``, and every page.
    """
    corpus: Json = json.loads((folder / "corpus.json").read_text("utf-8"))
    apps = corpus["apps"]
    journeys = [
        journey
        for app in apps
        for journey in json.loads((folder / "journeys" / f"{app['id']}.json").read_text("utf-8"))
    ]
    for fixture in corpus["fixtures"]:
        fixture["referenceJourneyIds"] = [
            j["id"] for j in journeys if j["fixtureId"] == fixture["id"]
        ]
    pages = [
        page
        for app in apps
        for page in parse_pages(
            (folder / "pages" / f"{app['id']}.aria").read_text("utf-8"),
            source=f"pages/{app['id']}.aria",
            app_id=app["id"],
            fixture_ids=[f["id"] for f in corpus["fixtures"] if f["appId"] == app["id"]],
            titles={route["id"]: route["title"] for route in app["routes"]},
        )
    ]
    return {**corpus, "pages": pages, "referenceJourneys": journeys}


def build_corpus(folder: Path, corpus_schema: Json) -> str:
    """The text of the corpus document built from ``folder``; it must pass ``corpus.v1``."""
    try:
        corpus = corpus_document(folder)
    except (AriaError, OSError, ValueError, KeyError) as exc:
        raise ContractError(f"corpus source: {exc}") from None
    errors = sorted(
        Draft202012Validator(corpus_schema).iter_errors(corpus), key=lambda e: list(e.path)
    )
    if errors:
        where = "/".join(str(p) for p in errors[0].absolute_path) or "(root)"
        raise ContractError(
            f"corpus: breaks corpus.v1 at {where}: {errors[0].message[:300]} "
            f"({len(errors)} error(s))"
        )
    return dump_json(corpus)
