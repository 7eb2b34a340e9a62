"""The owned apps are the implementation the page models are proven against, so they must
not read the models: no app file names them, and the host never serves them. The same holds
for the apps' shared folder, whose script every app loads."""

from __future__ import annotations

import http.client
from importlib import resources
from pathlib import Path

import pytest

from automium import corpus
from automium.hosting import AppServer

APPS = Path(str(resources.files("automium.corpus"))) / "apps"
APP_IDS = sorted(p.name for p in APPS.iterdir() if (p / "index.html").is_file())
SHARED = APPS / "shared"
SHARED_SCRIPT = '<script src="/shared/kit.js"></script>'
# How an app could reach the models or the built corpus: by any of these names.
MODEL_NAMES = (".aria", "corpus.v1", "corpus.json", "source/pages", "corpus/data", "/pages/")


def app_files() -> list[Path]:
    return sorted(p for p in APPS.rglob("*") if p.is_file())


def get(server: AppServer, path: str, header: str = "Content-Type") -> tuple[int, str, bytes]:
    """The status, one header and the body of a GET of ``path``."""
    connection = http.client.HTTPConnection("127.0.0.1", int(server.url.rsplit(":", 1)[1]))
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.getheader(header) or "", response.read()
    finally:
        connection.close()


@pytest.mark.parametrize(
    ("path", "cache"),
    [
        ("/", "no-store"),  # the shell carries the fixture's state
        ("/users", "no-store"),
        ("/static/app.js", "max-age=600"),
        ("/static/app.css", "max-age=600"),
        ("/shared/kit.js", "max-age=600"),
        ("/files/users.csv", "no-store"),
        ("/static/missing.js", "no-store"),
    ],
)
def test_only_the_apps_scripts_and_styles_may_come_from_a_browsers_cache(
    path: str, cache: str
) -> None:
    with AppServer("admin-console", "admin-console.admin-user") as server:
        status, cache_control, _ = get(server, path, "Cache-Control")

    assert (status == 200, cache_control) == (path != "/static/missing.js", cache)


def test_there_are_owned_apps_and_files_to_look_at() -> None:
    assert "todo-mvc" in APP_IDS
    assert app_files()


@pytest.mark.parametrize("path", app_files(), ids=lambda p: str(p.relative_to(APPS)))
def test_no_app_file_names_the_page_models_or_the_built_corpus(path: Path) -> None:
    text = path.read_bytes().decode("utf-8", errors="replace")

    assert [name for name in MODEL_NAMES if name in text] == []


@pytest.mark.parametrize(
    "path",
    [
        "/static/../../source/pages/todo-mvc.aria",
        "/static/%2e%2e/%2e%2e/source/pages/todo-mvc.aria",
        "/files/../../data/corpus.v1.json",
        "/static/..%2F..%2Fdata%2Fcorpus.v1.json",
        "/shared/../../source/pages/todo-mvc.aria",
        "/shared/%2e%2e/%2e%2e/data/corpus.v1.json",
        # The shared folder sits beside the apps: a step out of it must not reach their
        # credentials, seeds or files.
        "/shared/../shop-lite/accounts.json",
        "/shared/%2e%2e/todo-mvc/seeds/empty-storage.json",
        "/shared/..%2Fadmin-console%2Ffiles%2Fusers.csv",
        "/shared/",
        "/shared/.\\kit.js",
    ],
)
def test_the_host_never_serves_a_file_outside_the_apps_own_folders(path: str) -> None:
    with AppServer("todo-mvc", "todo-mvc.empty") as server:
        status, content_type, body = get(server, path)

    assert (status, content_type) == (404, "application/json")
    assert body == b'{"error": "no such file"}'


def test_any_other_path_gets_the_apps_shell_and_never_a_model() -> None:
    with AppServer("todo-mvc", "todo-mvc.empty") as server:
        status, content_type, body = get(server, "/automium/corpus/data/corpus.v1.json")

    assert (status, content_type) == (200, "text/html; charset=utf-8")
    assert b"window.AUTOMIUM" in body
    assert b"routeId" not in body


def test_the_shared_folder_is_no_app() -> None:
    assert SHARED.is_dir()
    assert not (SHARED / "index.html").exists()
    assert "shared" not in APP_IDS
    assert "shared" not in corpus.app_ids()


@pytest.mark.parametrize("app_id", APP_IDS)
def test_the_host_serves_every_app_the_shared_script(app_id: str) -> None:
    fixture_id = corpus.fixtures(app_id)[0].id
    with AppServer(app_id, fixture_id) as server:
        status, content_type, body = get(server, "/shared/kit.js")

    assert (status, content_type) == (200, "text/javascript")
    assert body == (SHARED / "kit.js").read_bytes()


@pytest.mark.parametrize("app_id", APP_IDS)
def test_every_app_loads_the_shared_script_before_its_own(app_id: str) -> None:
    shell = (APPS / app_id / "index.html").read_text("utf-8")

    assert shell.count(SHARED_SCRIPT) == 1
    assert shell.index(SHARED_SCRIPT) < shell.index('<script src="/static/app.js"></script>')
