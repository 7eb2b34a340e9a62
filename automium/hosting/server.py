"""One owned app, in one fixture's state, served over HTTP on 127.0.0.1.

Every path that is not a file or the API gets the app's shell, so each route of the app's
manifest loads directly, in any order; the app renders it before the ``load`` event from the
boot state the shell carries. The API is one call: ``POST /api/sign-in`` checks credentials
against the seed's accounts, so secrets never reach the page.

A session is a browser context: the app keeps its state in ``localStorage`` under
``AUTOMIUM.storageKey``, which is new for every server, so state survives navigation and
reloads within a run, and a new run (a new context, or a new server) starts from the seed.

The host is the standard library's threading server, held to what a local server owes its
machine (the apps are a page away from any site a browser visits):

- a request whose ``Host`` is not the address and port it serves (``127.0.0.1:<port>`` or
  ``localhost:<port>``) gets 421, so a site that rebinds its name to 127.0.0.1 reaches
  nothing; a POST from another origin gets 403;
- ``Content-Length`` must be one decimal number (else 400), at most 64 KiB (else 413), and a
  chunked body is refused (400); a body must be a JSON object at most 32 levels deep (400);
- every read of a connection waits at most :data:`READ_TIMEOUT_SECONDS`, and at most
  :data:`MAX_CONNECTIONS` are open at once: the next one closes the oldest, so clients that
  stall cannot keep a real request out;
- a client that goes away, or times out, ends its connection with one debug log line, and
  no traceback.
"""

from __future__ import annotations

import contextlib
import json
import logging
import mimetypes
import re
import socket
import threading
import time
from collections import OrderedDict
from dataclasses import asdict, dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from importlib.resources.abc import Traversable
from types import TracebackType
from typing import Any, ClassVar, Literal
from urllib.parse import unquote, urlsplit

from automium.defaults import ACCEPTED_HOSTS, LOOPBACK
from automium.hosting.bundles import (
    SHARED,
    app_root,
    fixture_state,
    matching_account,
    shared_root,
)

log = logging.getLogger("automium.hosting")

_HOST_NAMES = tuple(sorted(ACCEPTED_HOSTS))
READ_TIMEOUT_SECONDS = 10.0
"""How long a connection may go without sending a byte the host waits for."""
MAX_CONNECTIONS = 256
"""Connections open at once (a thread each); one more closes the oldest."""
MAX_JSON_DEPTH = 32
_LENGTH = re.compile(r"[0-9]{1,12}")
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
        self._httpd = _BoundedServer((LOOPBACK, port), _handler_for(self))
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


class _BoundedServer(ThreadingHTTPServer):
    """At most :data:`MAX_CONNECTIONS` connections: one more shuts the oldest down (its
    thread's read ends at once), and an error in a connection is a log line."""

    daemon_threads = True
    # The standard queue of five refuses connections a burst of stalled clients leaves
    # waiting; the kernel holds these until a thread takes them.
    request_queue_size = 128

    def __init__(self, address: tuple[str, int], handler: type[BaseHTTPRequestHandler]) -> None:
        super().__init__(address, handler)
        self._open: OrderedDict[int, socket.socket] = OrderedDict()
        self._open_lock = threading.Lock()

    @property
    def port(self) -> int:
        return int(self.server_address[1])

    def process_request(self, request: Any, client_address: Any) -> None:
        with self._open_lock:
            while len(self._open) >= MAX_CONNECTIONS:
                _, oldest = self._open.popitem(last=False)
                _shut(oldest)
            self._open[id(request)] = request
        super().process_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        with self._open_lock:
            self._open.pop(id(request), None)
        super().shutdown_request(request)

    def handle_error(self, request: Any, client_address: Any) -> None:  # noqa: ARG002
        log.debug("a connection from %s ended with an error", client_address, exc_info=True)

    def server_close(self) -> None:
        """Close the listening socket, wait for the connections' threads, then close any
        connection still open: one whose thread never ran its request (a thread can die
        in threading's own start-up) would otherwise stay open until collected."""
        super().server_close()
        with self._open_lock:
            left = list(self._open.values())
            self._open.clear()
        for connection in left:
            log.debug("closing a connection no thread served")
            _shut(connection)
            connection.close()


def _shut(connection: socket.socket) -> None:
    with contextlib.suppress(OSError):  # already gone
        connection.shutdown(socket.SHUT_RDWR)


def json_depth(text: bytes) -> int:
    """How deeply arrays and objects nest in ``text`` (brackets in strings do not count)."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in text:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return deepest


def _handler_for(server: AppServer) -> type[BaseHTTPRequestHandler]:
    class Handler(_Handler):
        app = server

    return Handler


class _Handler(BaseHTTPRequestHandler):
    app: ClassVar[AppServer]
    server: _BoundedServer
    server_version = "automium-apps"
    timeout = READ_TIMEOUT_SECONDS

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: a run's console log is the page's, not the server's."""

    def handle(self) -> None:
        try:
            super().handle()
        except (ConnectionError, TimeoutError) as exc:  # the client went away, or stalled
            log.debug("a client left: %s", exc)

    def finish(self) -> None:
        # What was not flushed had nobody to read it.
        with contextlib.suppress(ConnectionError, TimeoutError):
            super().finish()

    def parse_request(self) -> bool:
        """The standard checks, then the Host: only the address and port served."""
        if not super().parse_request():
            return False
        port = self.server.port
        if self.headers.get("Host") not in {f"{name}:{port}" for name in _HOST_NAMES}:
            self._send_json(
                HTTPStatus.MISDIRECTED_REQUEST,
                {"error": f"this host serves {LOOPBACK}:{port} only"},
            )
            return False
        return True

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
        login = self._json_body()
        if login is None:
            return
        ref = matching_account(self.app.app_id, login)
        if ref is None:
            self._send_json(HTTPStatus.UNAUTHORIZED, {"error": "those credentials are wrong"})
        else:
            self._send_json(HTTPStatus.OK, {"account": ref})

    def _refuse(self, status: HTTPStatus, error: str) -> None:
        self.close_connection = True  # what is left of the body is never read
        self._send_json(status, {"error": error})

    def _json_body(self) -> dict[str, Any] | None:
        """The request's JSON object, or None once the refusal is sent."""
        refusal = self._framing_refusal()
        if refusal is None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            if len(body) < int(self.headers["Content-Length"]):  # the client left mid-body
                self.close_connection = True
                return None
            value = _json_object(body)
            if isinstance(value, dict):
                return value
            refusal = HTTPStatus.BAD_REQUEST, value
        self._refuse(*refusal)
        return None

    def _framing_refusal(self) -> tuple[HTTPStatus, str] | None:
        """Why the request's origin or framing is refused, before its body is read."""
        origin = self.headers.get("Origin")
        port = self.server.port
        lengths = self.headers.get_all("Content-Length") or []
        if origin is not None and origin not in {f"http://{n}:{port}" for n in _HOST_NAMES}:
            return HTTPStatus.FORBIDDEN, "the API answers the app's own pages only"
        if "Transfer-Encoding" in self.headers:
            return HTTPStatus.BAD_REQUEST, "a body needs a Content-Length, not chunks"
        if len(lengths) != 1 or not _LENGTH.fullmatch(lengths[0].strip()):
            return HTTPStatus.BAD_REQUEST, "Content-Length must be one decimal number"
        if int(lengths[0]) > _MAX_BODY:
            return HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"a body is at most {_MAX_BODY} bytes"
        return None


def _json_object(body: bytes) -> dict[str, Any] | str:
    """The JSON object ``body`` holds, or why it is refused."""
    if json_depth(body) > MAX_JSON_DEPTH:
        return f"JSON nests at most {MAX_JSON_DEPTH} deep"
    try:
        value = json.loads(body)
    except (ValueError, RecursionError):
        value = None
    return value if isinstance(value, dict) else "a JSON object is required"
