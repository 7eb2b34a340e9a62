"""The app host refuses what a local server must: a foreign Host, a foreign origin, a
malformed length or body, deep JSON, incomplete credentials; it times out stalled clients,
bounds its connections and says nothing on stderr when a client goes away."""

from __future__ import annotations

import json
import socket
import socketserver
import time
from collections.abc import Iterator

import pytest

from automium.hosting import AppServer
from automium.hosting import server as hosting
from automium.hosting.bundles import secret

READ_SECONDS = 10.0  # a bound on every socket read, never a sleep


@pytest.fixture(scope="module")
def bank() -> Iterator[AppServer]:
    with AppServer("bank-sandbox", "bank-sandbox.two-accounts") as server:
        yield server


def port_of(server: AppServer) -> int:
    return int(server.url.rsplit(":", 1)[1])


def exchange(server: AppServer, raw: bytes) -> bytes:
    """Write ``raw``, read the answer to its end (the host closes after each)."""
    with socket.create_connection(("127.0.0.1", port_of(server)), timeout=READ_SECONDS) as conn:
        conn.sendall(raw)
        chunks = []
        while chunk := conn.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def status_of(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1]) if answer else 0


def post(server: AppServer, body: bytes, *headers: str, host: str | None = None) -> bytes:
    host = host or f"127.0.0.1:{port_of(server)}"
    head = ["POST /api/sign-in HTTP/1.1", f"Host: {host}", *headers]
    if not any(h.lower().startswith(("content-length", "transfer-encoding")) for h in headers):
        head.append(f"Content-Length: {len(body)}")
    return exchange(server, ("\r\n".join(head) + "\r\n\r\n").encode() + body)


def sign_in(server: AppServer, profile: object, secrets: object) -> int:
    body = json.dumps({"profile": profile, "secrets": secrets}).encode()
    return status_of(post(server, body, "Content-Type: application/json"))


@pytest.mark.parametrize(
    "host",
    [
        "evil.example",
        "evil.example:{port}",  # DNS rebinding: a site's own name, now pointing here
        "127.0.0.1",
        "127.0.0.1:1",
        "localhost:1",
        "127.0.0.1:{port}.evil.example",
        "",
    ],
)
def test_a_request_for_another_host_is_misdirected(bank: AppServer, host: str) -> None:
    host = host.format(port=port_of(bank))
    answer = exchange(bank, f"GET / HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())

    assert status_of(answer) == 421
    assert b"window.AUTOMIUM" not in answer


def test_a_request_without_a_host_is_misdirected(bank: AppServer) -> None:
    assert status_of(exchange(bank, b"GET / HTTP/1.0\r\n\r\n")) == 421


@pytest.mark.parametrize("name", ["127.0.0.1", "localhost"])
def test_the_loopback_address_and_port_it_serves_are_answered(bank: AppServer, name: str) -> None:
    answer = exchange(bank, f"GET / HTTP/1.1\r\nHost: {name}:{port_of(bank)}\r\n\r\n".encode())

    assert status_of(answer) == 200
    assert b"window.AUTOMIUM" in answer


def test_a_post_from_another_origin_is_forbidden(bank: AppServer) -> None:
    body = b'{"profile": {}, "secrets": {}}'

    assert status_of(post(bank, body, "Origin: http://evil.example")) == 403
    assert status_of(post(bank, body, f"Origin: http://127.0.0.1:{port_of(bank)}")) == 401


@pytest.mark.parametrize(
    "length",
    ["abc", "1,2", "-1", "1e3", "0x10", " ", "99999999999999999999", "4 4"],
)
def test_a_malformed_length_is_a_bad_request(bank: AppServer, length: str) -> None:
    answer = post(bank, b"{}", f"Content-Length: {length}")

    assert status_of(answer) == 400
    assert b"Content-Length must be one decimal number" in answer


def test_two_lengths_or_chunks_are_a_bad_request(bank: AppServer) -> None:
    twice = post(bank, b"{}", "Content-Length: 2", "Content-Length: 2")
    chunked = post(bank, b"2\r\n{}\r\n0\r\n\r\n", "Transfer-Encoding: chunked")

    assert (status_of(twice), status_of(chunked)) == (400, 400)


def test_a_body_over_the_bound_is_refused_unread(bank: AppServer) -> None:
    assert status_of(post(bank, b"", "Content-Length: 70000")) == 413


@pytest.mark.parametrize(
    "body", [b"", b"not json", b"[1, 2]", b'"text"', b"\xff\xfe", b"[" * 5000, b'{"a":' * 40]
)
def test_a_body_that_is_no_json_object_or_nests_too_deep_is_a_bad_request(
    bank: AppServer, body: bytes
) -> None:
    assert status_of(post(bank, body)) == 400


def test_json_depth_counts_brackets_outside_strings_only() -> None:
    assert hosting.json_depth(b'{"a": [1, {"b": "[[[{{{"}]}') == 3
    assert hosting.json_depth(b'["\\"[["]') == 1


@pytest.mark.parametrize(
    ("app_id", "fixture_id", "identity", "secret_name"),
    [
        ("bank-sandbox", "bank-sandbox.two-accounts", {"customerId": "C-10482"}, "password"),
        ("bank-sandbox", "bank-sandbox.two-accounts", {"customerId": "C-10482"}, "one-time-code"),
        ("shop-lite", None, {"email": "ada@example.com"}, "password"),
        ("admin-console", None, {"email": "priya@northwind.example"}, "password"),
        ("helpdesk", None, {"email": "omar@helpdesk.example"}, "password"),
    ],
)
def test_sign_in_takes_complete_credentials_only(
    app_id: str, fixture_id: str | None, identity: dict[str, str], secret_name: str
) -> None:
    from automium import corpus  # noqa: PLC0415

    account = {
        "bank-sandbox": "customer",
        "shop-lite": "buyer",
        "admin-console": "admin",
        "helpdesk": "agent",
    }[app_id]
    value = secret(app_id, f"account:{app_id}/{account}#{secret_name}")
    with AppServer(app_id, fixture_id or corpus.fixtures(app_id)[0].id) as server:
        complete = sign_in(server, identity, {secret_name: value})
        alone = sign_in(server, {}, {secret_name: value})
        named_only = sign_in(server, {"name": "x"}, {secret_name: value})
        no_secret = sign_in(server, identity, {})
        wrong = sign_in(server, identity, {secret_name: value + "0"})

    assert (complete, alone, named_only, no_secret, wrong) == (200, 401, 401, 401, 401)


def test_todo_mvc_has_no_account_to_sign_in_to() -> None:
    with AppServer("todo-mvc", "todo-mvc.empty") as server:
        assert sign_in(server, {"email": "a"}, {"password": "b"}) == 401


def test_a_stalled_body_times_out_and_a_client_that_leaves_is_quiet(
    bank: AppServer, capfd: pytest.CaptureFixture[str]
) -> None:
    port = port_of(bank)
    head = f"POST /api/sign-in HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 50\r\n\r\n"
    # A client that leaves in the middle of its body, and one that leaves before the answer.
    for raw in (head.encode() + b'{"pro', f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n"):
        conn = socket.create_connection(("127.0.0.1", port), timeout=READ_SECONDS)
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        conn.sendall(raw if isinstance(raw, bytes) else raw.encode())
        conn.close()  # a reset, as a killed client's kernel sends
    assert status_of(exchange(bank, f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()))

    assert "Traceback" not in capfd.readouterr().err


def test_a_read_that_stalls_ends_the_connection_at_the_timeout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(hosting._Handler, "timeout", 0.2)
    with AppServer("todo-mvc", "todo-mvc.empty") as server:
        conn = socket.create_connection(("127.0.0.1", port_of(server)), timeout=READ_SECONDS)
        conn.sendall(b"GET / HTTP/1.1\r\n")  # and nothing more
        started = time.monotonic()
        assert conn.recv(1024) == b""  # the host closed it
        conn.close()

    assert time.monotonic() - started < READ_SECONDS


def test_stalled_clients_beyond_the_bound_close_the_oldest_not_a_new_request(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(hosting, "MAX_CONNECTIONS", 8)
    with AppServer("todo-mvc", "todo-mvc.empty") as server:
        port = port_of(server)
        stalled = [
            socket.create_connection(("127.0.0.1", port), timeout=READ_SECONDS) for _ in range(20)
        ]
        for conn in stalled:
            conn.sendall(b"POST /api/sign-in HTTP/1.1\r\nHost: x\r\n")
        answer = exchange(server, f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        closed = sum(conn.recv(1) == b"" for conn in stalled[:12])
        for conn in stalled:
            conn.close()

    assert status_of(answer) == 200
    assert closed == 12  # the oldest, so the newest 8 and the real request fit


def test_a_connection_no_thread_served_is_closed_when_the_server_stops(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # As if the connection's thread died in threading's own start-up, before its request.
    monkeypatch.setattr(socketserver.ThreadingMixIn, "process_request", lambda *_: None)
    server = AppServer("todo-mvc", "todo-mvc.empty").start()
    with socket.create_connection(("127.0.0.1", port_of(server)), timeout=READ_SECONDS) as conn:
        deadline = time.monotonic() + READ_SECONDS
        while not server._httpd._open:  # accepted, and held by the server only
            assert time.monotonic() < deadline
            time.sleep(0.01)
        server.stop()

        assert conn.recv(1) == b""  # closed, not left open until collected
