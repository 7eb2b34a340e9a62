"""The owned benchmark corpus v1: apps, routes, fixtures, environment profiles and
reference journeys, as checked-in package data."""

from automium.corpus.loader import CORPUS_VERSION, load_corpus
from automium.corpus.lookup import (
    app_catalog,
    app_ids,
    app_problem,
    apps,
    fixture_catalog,
    fixture_ids,
    fixture_problem,
    fixtures,
    get_app,
    get_environment_profile,
    get_fixture,
    get_route,
    list_apps,
    list_fixtures,
    profile_ids,
    reference_journeys,
    route_ids,
    route_problem,
    vocabularies,
)

__all__ = [
    "CORPUS_VERSION",
    "app_catalog",
    "app_ids",
    "app_problem",
    "apps",
    "fixture_catalog",
    "fixture_ids",
    "fixture_problem",
    "fixtures",
    "get_app",
    "get_environment_profile",
    "get_fixture",
    "get_route",
    "list_apps",
    "list_fixtures",
    "load_corpus",
    "profile_ids",
    "reference_journeys",
    "route_ids",
    "route_problem",
    "vocabularies",
]
