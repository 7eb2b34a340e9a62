"""Lookups over the corpus; each refusal carries its stable code and the allowed values."""

from __future__ import annotations

from functools import cache

from automium.contracts import (
    App,
    AppCatalog,
    EnvironmentProfile,
    ErrorCode,
    Fixture,
    FixtureCatalog,
    Journey,
    ListAppsInput,
    ListFixturesInput,
    Route,
    present,
)
from automium.corpus.loader import CORPUS_VERSION, load_corpus
from automium.errors import AutomiumError, Problem, quoted


def apps() -> tuple[App, ...]:
    return tuple(load_corpus().apps)


def app_ids() -> tuple[str, ...]:
    return tuple(a.id for a in apps())


@cache
def _apps_by_id() -> dict[str, App]:
    return {a.id: a for a in apps()}


@cache
def _fixtures_by_id() -> dict[str, Fixture]:
    return {f.id: f for f in load_corpus().fixtures}


@cache
def _profiles_by_id() -> dict[str, EnvironmentProfile]:
    return {p.id: p for p in load_corpus().environment_profiles}


def app_problem(app_id: object, path: str) -> Problem | None:
    if isinstance(app_id, str) and app_id in _apps_by_id():
        return None
    return Problem(
        ErrorCode.INVALID_APP_ID,
        f"{quoted(app_id)} is not an app of corpus {CORPUS_VERSION}; see automium://apps",
        path,
        app_ids(),
    )


def get_app(app_id: str, path: str = "/appId") -> App:
    if problem := app_problem(app_id, path):
        raise AutomiumError([problem])
    return _apps_by_id()[app_id]


def fixture_problem(fixture_id: object, app_id: object, path: str) -> Problem | None:
    """Why ``fixture_id`` cannot be used with ``app_id`` (an app already checked), if at all."""
    fixture = _fixtures_by_id().get(fixture_id) if isinstance(fixture_id, str) else None
    if fixture is None:
        return Problem(
            ErrorCode.UNKNOWN_FIXTURE,
            f"{quoted(fixture_id)} is not a fixture of corpus {CORPUS_VERSION}; see automium://fixtures",
            path,
            fixture_ids(app_id if isinstance(app_id, str) else None),
        )
    # Type checks before lookups: a caller's appId may be any JSON value, even a list.
    if isinstance(app_id, str) and app_id in _apps_by_id() and fixture.app_id != app_id:
        return Problem(
            ErrorCode.FIXTURE_APP_MISMATCH,
            f"fixture {quoted(fixture_id)} belongs to app {quoted(fixture.app_id)}, "
            f"not {quoted(app_id)}",
            path,
            fixture_ids(str(app_id)),
        )
    return None


def get_fixture(fixture_id: str, app_id: str, path: str = "/fixtureId") -> Fixture:
    if problem := fixture_problem(fixture_id, app_id, path):
        raise AutomiumError([problem])
    return _fixtures_by_id()[fixture_id]


def fixtures(app_id: str | None = None) -> tuple[Fixture, ...]:
    everything = load_corpus().fixtures
    return tuple(f for f in everything if app_id is None or f.app_id == app_id)


def fixture_ids(app_id: str | None = None) -> tuple[str, ...]:
    return tuple(f.id for f in fixtures(app_id if app_id in _apps_by_id() else None))


def route_ids(app_id: str) -> tuple[str, ...]:
    return tuple(r.id for r in get_app(app_id).routes)


def route_problem(app_id: str, route_id: object, path: str) -> Problem | None:
    allowed = route_ids(app_id)
    if route_id in allowed:
        return None
    return Problem(
        ErrorCode.UNKNOWN_ROUTE,
        f"{quoted(route_id)} is not a route of {app_id}; navigate takes a route id, never a URL",
        path,
        allowed,
    )


def get_route(app_id: str, route_id: str, path: str = "/route") -> Route:
    if problem := route_problem(app_id, route_id, path):
        raise AutomiumError([problem])
    return next(r for r in get_app(app_id).routes if r.id == route_id)


def profile_ids() -> tuple[str, ...]:
    return tuple(_profiles_by_id())


def profile_problem(profile_id: object, path: str) -> Problem | None:
    if isinstance(profile_id, str) and profile_id in _profiles_by_id():
        return None
    return Problem(
        ErrorCode.INVALID_INPUT,
        f"{quoted(profile_id)} is not an environment profile of corpus {CORPUS_VERSION}",
        path,
        profile_ids(),
    )


def get_environment_profile(
    profile_id: str, path: str = "/environmentProfileId"
) -> EnvironmentProfile:
    if problem := profile_problem(profile_id, path):
        raise AutomiumError([problem])
    return _profiles_by_id()[profile_id]


def reference_journeys(fixture_id: str | None = None) -> tuple[Journey, ...]:
    journeys = load_corpus().reference_journeys
    return tuple(j for j in journeys if fixture_id is None or j.fixture_id == fixture_id)


def vocabularies() -> dict[str, tuple[str, ...]]:
    """Allowed values the contracts leave to the corpus, keyed by contract definition."""
    return {
        "AppId": app_ids(),
        "FixtureId": fixture_ids(),
        "EnvironmentProfileId": profile_ids(),
        "CorpusVersion": (CORPUS_VERSION,),
    }


@cache  # the corpus never changes while serving; the models are frozen
def app_catalog() -> AppCatalog:
    return AppCatalog(
        schema_version="automium.app-catalog/v1", corpus_version=CORPUS_VERSION, apps=list(apps())
    )


@cache
def fixture_catalog(app_id: str | None = None) -> FixtureCatalog:
    if app_id is not None:
        get_app(app_id)
    chosen = fixtures(app_id)
    used = sorted({f.environment_profile_id for f in chosen})
    return FixtureCatalog(
        schema_version="automium.fixture-catalog/v1",
        corpus_version=CORPUS_VERSION,
        **present(app_id=app_id),
        fixtures=list(chosen),
        environment_profiles=[_profiles_by_id()[p] for p in used],
    )


def list_apps(_request: ListAppsInput) -> AppCatalog:
    """``automium_list_apps``: every app of the corpus."""
    return app_catalog()


def list_fixtures(request: ListFixturesInput) -> FixtureCatalog:
    """``automium_list_fixtures``: the fixtures of one app, or of all."""
    return fixture_catalog(request.app_id)
