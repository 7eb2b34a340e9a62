"""One owned app, in one fixture's state, served over HTTP on 127.0.0.1.

Every path that is not a file or the API gets the app's shell, so each route of the app's
manifest loads directly, in any order; the app renders it before the ``load`` event from the
boot state the shell carries. The API is one call: ``POST /api/sign-in`` checks credentials
against the seed's accounts, so secrets never reach the page.

A session is a browser context: the app keeps its state in ``localStorage`` under
``AUTOMIUM.storageKey``, which is new for every server, so state survives navigation and
reloads within a run, and a new run (a new context, or a new server) starts from the seed.
"""

from __future__ import annotations

import json
import mimetypes
import threading
import time
from dataclasses import asdict, dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from importlib.resources.abc import Traversable
from types import TracebackType
from typing import Any, ClassVar, Literal
from urllib.parse import unquote, urlsplit

from automium.defaults import LOOPBACK
from automium.hosting.bundles import (
    SHARED,
    app_root,
    fixture_state,
    matching_account,
    shared_root,
)

_BOOT_MARK = "<!--automium:boot-->"
_POLL_SECONDS = 0.02
_MAX_BODY = 64 * 1024
# Files a page may load: the app's own, and the fixture files a journey uploads. Besides
# these, /shared/ serves the apps' shared folder (SHARED), the same for every app.
_FILE_FOLDERS = ("static", "files")
# An app's scripts and styles do not change while it is served, so a page a browser loads
# again (every proof and every run step starts from a fresh load) takes them from its cache;
# the shell, which carries the fixture's state, is never cached.
_ASSETS_CACHE = "max-age=600"


@dataclass(frozen=True)
class Fault:
    """A breakage the app is started with, so a journey has a failing variant: the element
    with this role and accessible name is removed, disabled, or renamed to ``to``."""

    kind: Literal["remove", "disable", "rename"]
    role: str
    name: str
    to: str | None = None


def _script_json(value: object) -> str:
    # Inside <script>, "</" would end the element; JSON allows "<\/" for it.
    return json.dumps(value, ensure_ascii=False, sort_keys=True).replace("</", "<\\/")


class AppServer:
    """``with AppServer("todo-mvc", "todo-mvc.empty") as server: server.url``."""

    def __init__(
        self, app_id: str, fixture_id: str, *, port: int = 0, faults: tuple[Fault, ...] = ()
    ) -> None:
        self.app_id = app_id
        self.fixture_id = fixture_id
        self.faults = faults
        self._state = fixture_state(app_id, fixture_id)
        self._shell = (app_root(app_id) / "index.html").read_text("utf-8")
        self._storage_key = f"automium:{fixture_id}:{time.time_ns()}"
        self._httpd = ThreadingHTTPServer((LOOPBACK, port), _handler_for(self))
        self._httpd.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self._httpd.server_address[1]}"

    def shell(self) -> str:
        boot: dict[str, Any] = {
            **self._state.boot(),
            "storageKey": self._storage_key,
            "faults": [asdict(f) for f in self.faults],
        }
        tags = f"<script>window.AUTOMIUM = {_script_json(boot)};</script>"
        if self.faults:
            tags += '\n<script src="/__automium/faults.js"></script>'
        return self._shell.replace(_BOOT_MARK, tags, 1)

    def start(self) -> AppServer:
        # stop() waits for the serving loop to see the shutdown flag, once per poll: the
        # default half second was most of a hosting test's time.
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": _POLL_SECONDS},
            name=f"serve-{self.app_id}",
            daemon=True,
        )
        self._thread.start()
        return self

    def serve_forever(self) -> None:
        self._httpd.serve_forever()

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread is not None:
            self._thread.join()

    def __enter__(self) -> AppServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()


def _handler_for(server: AppServer) -> type[BaseHTTPRequestHandler]:
    class Handler(_Handler):
        app = server

    return Handler


class _Handler(BaseHTTPRequestHandler):
    app: ClassVar[AppServer]
    server_version = "automium-apps"

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: a run's console log is the page's, not the server's."""

    def _send(
        self, status: HTTPStatus, body: bytes, content_type: str, cache: str = "no-store"
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", cache)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _send_json(self, status: HTTPStatus, value: object) -> None:
        self._send(status, json.dumps(value).encode(), "application/json")

    def do_GET(self) -> None:
        path = unquote(urlsplit(self.path).path)
        head, _, rest = path.lstrip("/").partition("/")
        if path == "/__automium/faults.js":
            body = (resources.files(__package__) / "faults.js").read_bytes()
            self._send(HTTPStatus.OK, body, "text/javascript")
        elif head in _FILE_FOLDERS:
            cache = _ASSETS_CACHE if head == "static" else "no-store"
            self._send_file(app_root(self.app.app_id) / head, rest, cache)
        elif head == SHARED:
            self._send_file(shared_root(), rest, _ASSETS_CACHE)
        elif head == "api":
            self._send_json(HTTPStatus.METHOD_NOT_ALLOWED, {"error": "the API takes POST"})
        else:
            self._send(HTTPStatus.OK, self.app.shell().encode(), "text/html; charset=utf-8")

    do_HEAD = do_GET

    def _send_file(self, folder: Traversable, rest: str, cache: str) -> None:
        """The file at ``rest`` below ``folder``, and never one outside it: no part of the path
        may be empty, ``.`` or ``..``, or hold a backslash."""
        parts = rest.split("/")
        if not rest or any(p in ("", ".", "..") or "\\" in p for p in parts):
            self._send_json(HTTPStatus.NOT_FOUND, {"error": "no such file"})
            return
        target = folder
        for part in parts:
            target = target / part
        if not target.is_file():
            self._send_json(HTTPStatus.NOT_FOUND, {"error": "no such file"})
            return
        content_type = mimetypes.guess_type(parts[-1])[0] or "application/octet-stream"
        self._send(HTTPStatus.OK, target.read_bytes(), content_type, cache)

    def do_POST(self) -> None:
        if urlsplit(self.path).path != "/api/sign-in":
            self._send_json(HTTPStatus.NOT_FOUND, {"error": "no such endpoint"})
            return
        length = int(self.headers.get("Content-Length") or 0)
        if not 0 < length <= _MAX_BODY:
            self._send_json(HTTPStatus.BAD_REQUEST, {"error": "a JSON body is required"})
            return
        try:
            login = json.loads(self.rfile.read(length))
        except ValueError:
            login = None
        ref = matching_account(self.app.app_id, login) if isinstance(login, dict) else None
        if ref is None:
            self._send_json(HTTPStatus.UNAUTHORIZED, {"error": "those credentials are wrong"})
        else:
            self._send_json(HTTPStatus.OK, {"account": ref})
