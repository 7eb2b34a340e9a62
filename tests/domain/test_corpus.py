"""The owned benchmark corpus v1: it is exactly the corpus of the design, it satisfies its
own contract, every reference in it resolves, and every lookup refuses with a stable code.
Its page models are the pages each fixture sees, and the reference journeys prove them."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from automium import corpus
from automium.compilation import compilation_document
from automium.contracts import ErrorCode, Fixture, Journey, to_document
from automium.corpus.pages import View, page, pages
from automium.errors import AutomiumError
from automium.journeys import check_journey, reference_journeys
from automium.journeys.page_walk import open_route
from automium.journeys.targets import matches
from automium.validation import check
from automium_build.corpus import corpus_document

# --- corpus v1, written out again by hand -----------------------------------------------------

APPS: dict[str, tuple[str, tuple[str, ...]]] = {
    "todo-mvc": ("static-bundle", ("forms", "list-editing", "keyboard", "local-storage")),
    "shop-lite": (
        "static-bundle",
        ("auth", "search", "forms", "cart", "checkout", "pagination"),
    ),
    "admin-console": (
        "static-bundle",
        ("auth", "tables", "filters", "modals", "file-upload", "role-based-access"),
    ),
    "helpdesk": ("static-bundle", ("auth", "rich-text", "multi-step-forms", "notifications")),
    "bank-sandbox": (
        "static-bundle",
        ("auth", "one-time-codes", "iframes", "confirmation-dialogs", "tables"),
    ),
}
ROUTES: dict[str, tuple[str, ...]] = {
    "todo-mvc": ("all", "active", "completed"),
    "shop-lite": (
        "home",
        "login",
        "search",
        "product",
        "cart",
        "checkout",
        "order-confirmation",
        "orders",
    ),
    "admin-console": ("login", "dashboard", "users", "user-detail", "settings", "audit-log"),
    "helpdesk": ("login", "inbox", "ticket", "new-ticket", "reports"),
    "bank-sandbox": (
        "login",
        "accounts",
        "transfer",
        "transfer-review",
        "transfer-receipt",
        "statements",
    ),
}
FIXTURES: dict[str, tuple[str, ...]] = {
    "todo-mvc": ("todo-mvc.empty", "todo-mvc.three-items"),
    "shop-lite": ("shop-lite.guest-empty-cart", "shop-lite.returning-buyer"),
    "admin-console": ("admin-console.admin-user", "admin-console.read-only-auditor"),
    "helpdesk": ("helpdesk.agent-open-queue", "helpdesk.customer-new"),
    "bank-sandbox": ("bank-sandbox.two-accounts", "bank-sandbox.locked-account"),
}
PROFILES = ("desktop-1280x720", "mobile-390x844")

ALL_FIXTURES = [f for ids in FIXTURES.values() for f in ids]
REFERENCE_IDS = [j.id for j in corpus.reference_journeys()]

# Shapes of things that must never be in checked-in data: credentials, keys, tokens.
SECRET_LIKE = (
    re.compile(r"(?i)\b(password|passwd|pwd|secret|token|api[_-]?key)\s*[:=]"),
    re.compile(r"[A-Za-z0-9+]{32,}={0,2}"),  # long base64 or hex blobs
    re.compile(r"\b(sk|pk|ghp|xox[abp])[-_][A-Za-z0-9]{8,}"),
    re.compile(r"://[^/\s:@]*:[^/\s@]*@"),  # user:password@host
    re.compile(r"-----BEGIN [A-Z ]+-----"),
)


def raw_corpus() -> dict[str, Any]:
    """The checked-in package data, exactly as shipped (not through the loader)."""
    data = resources.files("automium.corpus") / "data" / "corpus.v1.json"
    document: dict[str, Any] = json.loads(data.read_text("utf-8"))
    return document


def strings_in(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)


def journey_routes(journey: Journey) -> list[tuple[str, str]]:
    """Every (JSON path, route id) a journey names: navigate steps and route_is assertions."""
    document = to_document(journey)
    named = [
        (f"/steps/{i}/route", s["route"])
        for i, s in enumerate(document["steps"])
        if s["intent"] == "navigate"
    ]
    named += [
        (f"/assertions/{i}/route", a["route"])
        for i, a in enumerate(document["assertions"])
        if a["kind"] == "route_is"
    ]
    return named


# --- the data is valid and is the designed corpus ---------------------------------------------


def test_the_checked_in_corpus_satisfies_the_corpus_contract() -> None:
    assert check("corpus.v1", raw_corpus()) == []


def test_the_loaded_corpus_is_the_checked_in_data_without_loss() -> None:
    assert to_document(corpus.load_corpus()) == raw_corpus()


def test_the_corpus_has_the_one_supported_version() -> None:
    assert corpus.CORPUS_VERSION == "2026.1"
    assert corpus.load_corpus().corpus_version == "2026.1"


def test_the_corpus_has_exactly_the_designed_apps_with_their_hosting_and_capabilities() -> None:
    documents = [to_document(a) for a in corpus.apps()]

    assert {a["id"]: (a["hosting"], tuple(a["capabilities"])) for a in documents} == APPS
    assert corpus.app_ids() == tuple(APPS)


@pytest.mark.parametrize("app_id", list(ROUTES))
def test_each_app_has_exactly_the_designed_route_manifest(app_id: str) -> None:
    assert corpus.route_ids(app_id) == ROUTES[app_id]


@pytest.mark.parametrize("app_id", list(APPS))
def test_each_app_has_a_display_name_and_a_rationale(app_id: str) -> None:
    app = corpus.get_app(app_id)

    assert app.display_name.strip()
    assert app.rationale.strip()


def test_the_corpus_has_exactly_the_designed_fixtures_two_per_app() -> None:
    assert corpus.fixture_ids() == tuple(ALL_FIXTURES)
    assert all(len(ids) == 2 for ids in FIXTURES.values())


def test_the_corpus_has_exactly_the_designed_environment_profiles() -> None:
    assert corpus.profile_ids() == PROFILES


# --- referential integrity ------------------------------------------------------------------


@pytest.mark.parametrize("fixture_id", ALL_FIXTURES)
def test_every_fixture_names_an_app_and_a_profile_that_exist(fixture_id: str) -> None:
    fixture = next(f for f in corpus.fixtures() if f.id == fixture_id)

    assert fixture.app_id in corpus.app_ids()
    assert fixture_id in FIXTURES[fixture.app_id]
    assert fixture.environment_profile_id in corpus.profile_ids()


@pytest.mark.parametrize("journey_id", REFERENCE_IDS)
def test_every_reference_journey_names_an_existing_fixture_of_its_own_app(
    journey_id: str,
) -> None:
    journey = next(j for j in corpus.reference_journeys() if j.id == journey_id)

    fixture = corpus.get_fixture(journey.fixture_id, journey.app_id)
    assert fixture.app_id == journey.app_id
    assert journey.id.startswith(f"{journey.app_id}.")


@pytest.mark.parametrize("journey_id", REFERENCE_IDS)
def test_every_route_a_reference_journey_names_is_in_its_apps_manifest(journey_id: str) -> None:
    journey = next(j for j in corpus.reference_journeys() if j.id == journey_id)

    unknown = [
        (path, route)
        for path, route in journey_routes(journey)
        if route not in ROUTES[journey.app_id]
    ]
    assert journey_routes(journey), "a reference journey should name at least one route"
    assert unknown == []


@pytest.mark.parametrize("fixture_id", ALL_FIXTURES)
def test_every_fixture_has_a_reference_journey_and_each_one_compiles(fixture_id: str) -> None:
    journeys = corpus.reference_journeys(fixture_id)

    assert len(journeys) >= 1
    for journey in journeys:
        compilation = compilation_document(to_document(journey))
        assert compilation["journeyId"] == journey.id


def test_reference_journey_ids_are_unique() -> None:
    assert len(set(REFERENCE_IDS)) == len(REFERENCE_IDS)


@pytest.mark.parametrize("fixture_id", ALL_FIXTURES)
def test_a_fixtures_artifact_root_is_artifacts_app_name(fixture_id: str) -> None:
    app_id, name = fixture_id.split(".")

    fixture = corpus.get_fixture(fixture_id, app_id)

    assert fixture.artifact_root == f"artifacts/{app_id}/{name}"


@pytest.mark.parametrize("fixture_id", ALL_FIXTURES)
def test_account_and_seed_refs_are_names_of_the_fixtures_own_app(fixture_id: str) -> None:
    app_id = fixture_id.split(".", maxsplit=1)[0]
    fixture = to_document(corpus.get_fixture(fixture_id, app_id))

    name = r"[a-z0-9]+(-[a-z0-9]+)*"
    for ref in fixture["accountRefs"]:
        assert re.fullmatch(rf"account:{re.escape(app_id)}/{name}", ref), ref
    for ref in fixture["seedRefs"]:
        assert re.fullmatch(rf"seed:{re.escape(app_id)}/{name}", ref), ref


def test_no_value_in_the_corpus_looks_like_a_secret() -> None:
    suspicious = [
        (value, pattern.pattern)
        for value in strings_in(raw_corpus())
        for pattern in SECRET_LIKE
        if pattern.search(value)
    ]

    assert suspicious == []


# --- lookups --------------------------------------------------------------------------------


def test_lookups_find_what_the_corpus_holds() -> None:
    assert corpus.get_app("shop-lite").id == "shop-lite"
    assert corpus.get_fixture("shop-lite.returning-buyer", "shop-lite").app_id == "shop-lite"
    assert corpus.get_route("shop-lite", "checkout").id == "checkout"
    profile = corpus.get_environment_profile("mobile-390x844")
    assert (profile.device_class.value, profile.viewport.width, profile.viewport.height) == (
        "mobile",
        390,
        844,
    )


Lookup = Callable[[], object]
LOOKUP_ERRORS: list[tuple[str, Lookup, ErrorCode, str, tuple[str, ...]]] = [
    (
        "unknown app",
        lambda: corpus.get_app("shop-max"),
        ErrorCode.INVALID_APP_ID,
        "/appId",
        tuple(APPS),
    ),
    (
        "unknown app at a caller's path",
        lambda: corpus.get_app("Shop Lite", "/appIds/1"),
        ErrorCode.INVALID_APP_ID,
        "/appIds/1",
        tuple(APPS),
    ),
    (
        "unknown fixture",
        lambda: corpus.get_fixture("shop-lite.vip-buyer", "shop-lite"),
        ErrorCode.UNKNOWN_FIXTURE,
        "/fixtureId",
        FIXTURES["shop-lite"],
    ),
    (
        "fixture of another app",
        lambda: corpus.get_fixture("todo-mvc.empty", "shop-lite"),
        ErrorCode.FIXTURE_APP_MISMATCH,
        "/fixtureId",
        FIXTURES["shop-lite"],
    ),
    (
        "unknown route",
        lambda: corpus.get_route("shop-lite", "basket"),
        ErrorCode.UNKNOWN_ROUTE,
        "/route",
        ROUTES["shop-lite"],
    ),
    (
        "a url for a route",
        lambda: corpus.get_route("todo-mvc", "https://todo.example/#/active"),
        ErrorCode.UNKNOWN_ROUTE,
        "/route",
        ROUTES["todo-mvc"],
    ),
    (
        "route of an unknown app",
        lambda: corpus.get_route("shop-max", "home"),
        ErrorCode.INVALID_APP_ID,
        "/appId",
        tuple(APPS),
    ),
    (
        "unknown environment profile",
        lambda: corpus.get_environment_profile("tablet-800x1280"),
        ErrorCode.INVALID_INPUT,
        "/environmentProfileId",
        PROFILES,
    ),
    (
        "fixture catalog of an unknown app",
        lambda: corpus.fixture_catalog("shop-max"),
        ErrorCode.INVALID_APP_ID,
        "/appId",
        tuple(APPS),
    ),
]


@pytest.mark.parametrize(
    ("lookup", "code", "path", "allowed"),
    [pytest.param(f, c, p, a, id=name) for name, f, c, p, a in LOOKUP_ERRORS],
)
def test_a_failed_lookup_is_refused_with_its_code_path_and_allowed_values(
    lookup: Lookup, code: ErrorCode, path: str, allowed: tuple[str, ...]
) -> None:
    with pytest.raises(AutomiumError) as refused:
        lookup()

    assert [(p.code, p.path, p.allowed) for p in refused.value.problems] == [(code, path, allowed)]


@pytest.mark.parametrize("app_id", list(FIXTURES))
def test_fixtures_of_an_app_are_only_that_apps_fixtures(app_id: str) -> None:
    assert tuple(f.id for f in corpus.fixtures(app_id)) == FIXTURES[app_id]
    assert corpus.fixture_ids(app_id) == FIXTURES[app_id]


def test_fixtures_without_an_app_are_all_fixtures() -> None:
    assert tuple(f.id for f in corpus.fixtures()) == tuple(ALL_FIXTURES)


def test_a_fixture_catalog_of_one_app_lists_only_the_profiles_its_fixtures_use() -> None:
    catalog = corpus.fixture_catalog("todo-mvc")

    assert [p.id for p in catalog.environment_profiles] == ["desktop-1280x720"]


# --- page models ----------------------------------------------------------------------------


def fixture_named(fixture_id: str) -> Fixture:
    return next(f for f in corpus.fixtures() if f.id == fixture_id)


def views(fixture_id: str) -> Iterator[tuple[str, str | None, View]]:
    """(route, entity, page) of every route the fixture opens without a redirect, with each
    entity it has for a route's parameter (and none, as after a form that creates one)."""
    fixture = fixture_named(fixture_id)
    redirected = {r.route for r in fixture.redirects}
    for template in pages(fixture.app_id):
        if template.route_id in redirected:
            continue
        entities = [e.id for e in fixture.entities if e.route == template.route_id]
        for entity in [None, *entities]:
            yield template.route_id, entity, template.view(fixture, entity)


def shown(node: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The nodes of a semantic snapshot a user sees: hidden subtrees left out."""
    if "hidden" in node.get("states", []):
        return
    yield node
    for child in node.get("children", []):
        yield from shown(child)


def snapshot_of(fixture_id: str, route_id: str) -> dict[str, Any]:
    view = next(v for r, e, v in views(fixture_id) if r == route_id and e is None)
    return to_document(view.snapshot())


def test_the_corpus_built_from_its_sources_is_the_checked_in_data() -> None:
    # regen builds the data from the ARIA page files and journeys; a hand edit of the data,
    # or a source edited without regenerating, would ship pages nobody reviewed.
    source = Path(str(resources.files("automium.corpus") / "source"))

    built = corpus_document(source)

    assert built == raw_corpus()
    assert check("corpus.v1", built) == []


@pytest.mark.parametrize("app_id", list(ROUTES))
def test_every_route_of_every_app_has_exactly_one_page(app_id: str) -> None:
    assert [t.route_id for t in pages(app_id)] == list(ROUTES[app_id])


@pytest.mark.parametrize("fixture_id", ALL_FIXTURES)
def test_every_page_a_fixture_reaches_is_a_semantic_snapshot_of_its_route(
    fixture_id: str,
) -> None:
    for route_id, entity, view in views(fixture_id):
        document = to_document(view.snapshot())
        refs = [node["ref"] for node in _walk(document["root"])]
        assert check("semantic-snapshot.v1", document) == [], (route_id, entity)
        assert document["routeId"] == route_id
        assert len(refs) == len(set(refs)), (route_id, entity)


@pytest.mark.parametrize("fixture_id", ALL_FIXTURES)
def test_every_route_a_fixture_opens_lands_on_one_page(fixture_id: str) -> None:
    fixture = fixture_named(fixture_id)
    redirects = {r.route: r.to for r in fixture.redirects}

    for route_id in ROUTES[fixture.app_id]:
        location, redirected_from = open_route(fixture, route_id, None, None)
        # One hop: a redirect never lands on another redirected route.
        assert location.route == redirects.get(route_id, route_id)
        assert location.route not in redirects
        assert redirected_from == (route_id if route_id in redirects else None)


@pytest.mark.parametrize("fixture_id", ALL_FIXTURES)
def test_a_page_opened_for_an_entity_is_named_after_it(fixture_id: str) -> None:
    fixture = fixture_named(fixture_id)

    for entity in fixture.entities:
        view = page(fixture.app_id, entity.route).view(fixture, entity.id)
        named = [e for e in view.elements() if e.annotated("name_from_entity")]
        assert [view.name(e) for e in named] == [entity.label] * len(named), entity.id


@pytest.mark.parametrize("journey_id", REFERENCE_IDS)
def test_every_reference_journey_compiles_as_valid_with_no_warning(journey_id: str) -> None:
    journey = next(j for j in corpus.reference_journeys() if j.id == journey_id)

    compilation = compilation_document(to_document(journey))

    assert (compilation["valid"], compilation["warnings"]) == (True, [])


@pytest.mark.parametrize("journey_id", REFERENCE_IDS)
def test_every_element_a_reference_journey_touches_is_in_the_page_model(journey_id: str) -> None:
    # As it runs: a journey that uses another has that one's steps first.
    document = reference_journeys()[journey_id].document
    walked = reference_journeys()[journey_id].walk

    for visit, step in zip(walked.visits, document["steps"], strict=True):
        assert visit.after is not None, f"the page after {step['id']} is unknown"
        if "target" in step:
            assert visit.before is not None, step["id"]
            assert visit.element is not None, step["id"]
            name = visit.before.view.name(visit.element)
            assert (visit.element.role, name) == (step["target"]["role"], step["target"]["name"])
    for assertion in document["assertions"]:
        if "target" not in assertion:
            continue
        role, name = assertion["target"]["role"], assertion["target"]["name"]
        if assertion["kind"] == "hidden":
            # What must be hidden here exists somewhere in the app: it is no typo.
            assert any(
                matches(e, role, name, v)
                for f in FIXTURES[document["appId"]]
                for _, _, v in views(f)
                for e in v.elements()
            ), assertion["id"]
        else:
            checked = walked.after(assertion["afterStep"])
            assert checked is not None
            assert checked.after is not None
            view = checked.after.view
            assert any(
                matches(e, role, name, view) and view.name(e) == name for e in view.elements()
            ), assertion["id"]


def test_every_route_of_every_app_is_visited_by_a_reference_journey() -> None:
    visited = set()
    for journey in corpus.reference_journeys():
        walked = check_journey(to_document(journey)).walk
        assert walked is not None
        visited |= {(journey.app_id, v.after.route) for v in walked.visits if v.after}

    assert {(app, route) for app, routes in ROUTES.items() for route in routes} - visited == set()


def test_todo_mvc_empty_shows_no_list_until_a_todo_is_added() -> None:
    for route_id in ROUTES["todo-mvc"]:
        roles = [n["role"] for n in shown(snapshot_of("todo-mvc.empty", route_id)["root"])]
        assert "list" not in roles, route_id
        assert "listitem" not in roles, route_id
        assert "textbox" in roles


def test_todo_mvc_three_items_has_three_rows_whose_controls_repeat_their_names() -> None:
    main = next(
        n for n in shown(snapshot_of("todo-mvc.three-items", "all")["root"]) if n["role"] == "main"
    )
    todos = next(n for n in shown(main) if n["role"] == "list")
    rows = [n for n in todos["children"] if "hidden" not in n.get("states", [])]

    assert [[(c["role"], c["name"]) for c in row["children"]] for row in rows] == [
        [("checkbox", "Toggle Todo"), ("text", text), ("button", "Delete")]
        for text in ("Buy milk", "Walk the dog", "Pay rent")
    ]


@pytest.mark.parametrize(
    ("fixture_id", "disabled"),
    [("bank-sandbox.locked-account", True), ("bank-sandbox.two-accounts", False)],
)
def test_bank_sandbox_locked_account_has_its_transfer_controls_disabled(
    fixture_id: str, disabled: bool
) -> None:
    nodes = {(n["role"], n["name"]): n for n in shown(snapshot_of(fixture_id, "accounts")["root"])}

    for control in (("button", "Move money"), ("button", "Pay a bill")):
        assert ("disabled" in nodes[control].get("states", [])) is disabled, control
    assert (("link", "Transfer money") in nodes) is not disabled


def test_a_dialog_holding_an_iframe_reads_as_its_own_text_without_the_frames() -> None:
    """toContainText on the dialog sees its own content, never the framed document's."""
    template = page("bank-sandbox", "transfer-review")
    dialog = next(e for e in template.elements if e.role == "dialog")
    code = next(e for e in template.elements if e.name == "One-time code")

    assert dialog.text == "We sent a code to your phone ending 55. Cancel"
    assert code.frame is not None
    assert template.elements[code.frame].role == "iframe"


def test_enter_in_the_one_time_code_field_verifies_as_its_frames_default_button_does() -> None:
    """The code frame's fields and its [submit] button share a form: the frame bounds one."""
    journey = next(
        to_document(j)
        for j in corpus.reference_journeys("bank-sandbox.two-accounts")
        if j.id == "bank-sandbox.transfer-to-savings"
    )
    steps = journey["steps"]
    assert steps[-1]["id"] == "verify"
    steps[-1] = {"id": "verify", "intent": "press_key", "key": "Enter"}

    compilation = compilation_document(journey)

    assert compilation["valid"] is True
    assert compilation["warnings"] == []


def test_a_transfer_then_its_new_balance_on_accounts_compiles_without_a_warning() -> None:
    """The accounts table shows balances a transfer changes: the model does not contradict."""
    journey = next(
        to_document(j)
        for j in corpus.reference_journeys("bank-sandbox.two-accounts")
        if j.id == "bank-sandbox.transfer-to-savings"
    )
    journey["steps"].append({"id": "back", "intent": "navigate", "route": "accounts"})
    del journey["successChecks"]  # they judge the receipt page the journey ends on
    journey["assertions"].append(
        {
            "id": "moved",
            "kind": "text_contains",
            "target": {"role": "table", "name": "Accounts"},
            "expected": "$2,990.18",
            "afterStep": "back",
        }
    )

    compilation = compilation_document(journey)

    assert compilation["valid"] is True
    assert compilation["warnings"] == []


def _walk(node: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield node
    for child in node.get("children", []):
        yield from _walk(child)
