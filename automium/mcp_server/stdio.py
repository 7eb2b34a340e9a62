"""Serve over stdio: stdout carries JSON-RPC only; logs go to stderr.

Automium brings its own stdio transport instead of the SDK's ``stdio_server``, which reads
a whole line before looking at it (one 100 MB line peaked at 3.7 GiB), drops every line it
cannot parse without an answer, and reads and writes on non-daemon worker threads that
keep the process alive after the session was cancelled. Here:

- a *daemon reader thread* reads stdin in 64 KiB chunks, frames lines with a 4 MiB cap
  (:mod:`~automium.mcp_server.framing`) and decodes each one
  (:mod:`~automium.mcp_server.inbound`): a message goes to the SDK's read stream, a refusal
  goes straight to the writer as a JSON-RPC error. Parsing there keeps a slow line off the
  event loop, and catching every failure of the parser there is safe: signals are only
  ever delivered to the main thread. At the end of input it waits for the answers still
  due (:mod:`~automium.mcp_server.inflight`) before the SDK learns of it;
- a *daemon writer thread* writes each outgoing line, so a client that stops reading
  blocks no event loop and no exit;
- the event loop runs the SDK's server on memory streams, exactly as ``stdio_server``
  feeds it.

Every way a session ends is a clean exit with code 0 and nothing on stderr but logs: stdin
closing (once what was asked is answered and written), SIGINT, SIGTERM (the MCP shutdown sequence:
close stdin, then SIGTERM) and a closed stdout (the client is gone; noticed at the next
write). Back-pressure is end to end: every stream has a zero-size buffer, so a client that
floods stdin is read only as fast as the server consumes.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
from collections.abc import Callable
from typing import Any

import anyio
from anyio import CancelScope
from anyio.from_thread import BlockingPortal
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.server import Server
from mcp.shared.message import SessionMessage

from automium.mcp_server.framing import Frame, LineFramer
from automium.mcp_server.inbound import (
    ID_WINDOW_BYTES,
    MAX_LINE_BYTES,
    Inbound,
    Reply,
    decode,
)
from automium.mcp_server.inflight import InFlight
from automium.mcp_server.server import build_server
from automium.mcp_server.wire import claimed_stdio

log = logging.getLogger("automium.mcp")

CHUNK_BYTES = 65536
"""How much one read of stdin takes at most (the pipe holds 64 KiB on Linux)."""


def serve_stdio() -> None:
    """Serve one session on stdin/stdout until it ends (see the module docstring)."""
    anyio.run(_serve)


async def _serve() -> None:
    server = build_server()
    with claimed_stdio() as (wire_in, wire_out):
        await serve_session(server, wire_in, wire_out)


async def serve_session(server: Server, wire_in: int, wire_out: int) -> None:
    """Run ``server`` on the two descriptors until stdin ends, stdout closes or a signal."""
    to_sdk, sdk_inbox = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    sdk_outbox, from_sdk = anyio.create_memory_object_stream[SessionMessage](0)
    to_wire, wire_lines = anyio.create_memory_object_stream[bytes](0)
    writer_stopped = anyio.Event()
    inflight = InFlight()
    # The threads reach the loop through a portal only: stopping it cancels whatever they
    # wait for inside its task group, and refuses their later calls, so no task of theirs
    # is left for the event loop's shutdown to cancel (and log).
    async with BlockingPortal() as portal:
        try:
            async with anyio.create_task_group() as tasks:
                tasks.start_soon(_stop_on_signals, tasks.cancel_scope)
                tasks.start_soon(_encode, from_sdk, to_wire.clone(), inflight)
                tasks.start_soon(_stop_when, writer_stopped, tasks.cancel_scope)
                _daemon("automium stdin", _read, wire_in, to_sdk, to_wire, inflight, portal)
                _daemon("automium stdout", _write, wire_out, wire_lines, writer_stopped, portal)
                await server.run(sdk_inbox, sdk_outbox, server.create_initialization_options())
                await writer_stopped.wait()  # stdin ended: the SDK's last answers reach the wire
                tasks.cancel_scope.cancel()
        finally:
            await portal.stop(cancel_remaining=True)


async def _stop_on_signals(scope: CancelScope) -> None:
    with anyio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        async for signum in signals:
            log.info("stopping on %s", signal.Signals(signum).name)
            scope.cancel()
            return


async def _stop_when(event: anyio.Event, scope: CancelScope) -> None:
    await event.wait()
    scope.cancel()


async def _encode(
    messages: MemoryObjectReceiveStream[SessionMessage],
    lines: MemoryObjectSendStream[bytes],
    inflight: InFlight,
) -> None:
    async with messages, lines:
        async for message in messages:
            # As the SDK's stdio writer serialises (aliases, only the fields set).
            text = message.message.model_dump_json(by_alias=True, exclude_unset=True)
            await lines.send(text.encode())
            inflight.saw_outbound(message.message)


async def _hand_over(
    to_sdk: MemoryObjectSendStream[SessionMessage | Exception],
    inflight: InFlight,
    message: SessionMessage,
) -> None:
    inflight.saw_inbound(message.message)  # before the SDK can answer it
    await to_sdk.send(message)


def _daemon(name: str, target: Callable[..., None], *args: Any) -> None:
    # Daemon: a thread blocked on a pipe must never keep the process alive after a session.
    threading.Thread(target=_quietly, args=(target, *args), name=name, daemon=True).start()


def _quietly(target: Callable[..., None], *args: Any) -> None:
    """Run a wire thread; whatever ends it (the loop gone at exit, …) prints no traceback."""
    try:
        target(*args)
    except BaseException as exc:  # a thread's uncaught exception prints a traceback
        log.debug("%s ended: %r", threading.current_thread().name, exc)


def _read(
    fd: int,
    to_sdk: MemoryObjectSendStream[SessionMessage | Exception],
    to_wire: MemoryObjectSendStream[bytes],
    inflight: InFlight,
    portal: BlockingPortal,
) -> None:
    framer = LineFramer(MAX_LINE_BYTES, ID_WINDOW_BYTES)
    try:
        while chunk := _read_chunk(fd):
            for frame in framer.feed(chunk):
                _deliver(_decoded(frame), to_sdk, to_wire, inflight, portal)
        for frame in framer.finish():
            _deliver(_decoded(frame), to_sdk, to_wire, inflight, portal)
        portal.call(inflight.drained)
    finally:  # end of input: the SDK sees its read stream end and finishes the session
        portal.call(to_sdk.close)
        portal.call(to_wire.close)


def _decoded(frame: Frame) -> Inbound:
    try:
        return decode(frame)
    except Exception:  # a bug here must cost one line, not the session (decode never raises)
        log.exception("a stdio line could not be decoded; it is dropped")
        return None


def _read_chunk(fd: int) -> bytes:
    try:
        return os.read(fd, CHUNK_BYTES)
    except OSError as exc:  # stdin unreadable (EIO, …): as good as closed
        log.info("stdin failed (%s); ending the session", exc.strerror)
        return b""


def _deliver(
    item: Inbound,
    to_sdk: MemoryObjectSendStream[SessionMessage | Exception],
    to_wire: MemoryObjectSendStream[bytes],
    inflight: InFlight,
    portal: BlockingPortal,
) -> None:
    if isinstance(item, SessionMessage):
        portal.call(_hand_over, to_sdk, inflight, item)
    elif isinstance(item, Reply):
        portal.call(to_wire.send, item.line)


def _write(
    fd: int,
    lines: MemoryObjectReceiveStream[bytes],
    stopped: anyio.Event,
    portal: BlockingPortal,
) -> None:
    try:
        while True:
            try:
                line = portal.call(lines.receive)
            except anyio.EndOfStream:
                return
            _write_all(fd, line + b"\n")
    except OSError as exc:  # EPIPE: the client closed its end of stdout
        log.info("stdout closed (%s); ending the session", exc.strerror)
    finally:
        portal.call(stopped.set)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
