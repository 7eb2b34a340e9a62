"""Serve over stdio: stdout carries JSON-RPC only; logs go to stderr.

Automium brings its own stdio transport instead of the SDK's ``stdio_server``, which reads
a whole line before looking at it (one 100 MB line peaked at 3.7 GiB), drops every line it
cannot parse without an answer, and reads and writes on non-daemon worker threads that
keep the process alive after the session was cancelled. Here:

- a *daemon reader thread* reads stdin in 64 KiB chunks, frames lines with a 4 MiB cap
  (:mod:`~automium.mcp_server.framing`) and decodes each one
  (:mod:`~automium.mcp_server.inbound`): a message is handed to the event loop, a refusal
  goes straight to the writer as a JSON-RPC error. Parsing there keeps a slow line off the
  event loop, and catching every failure of the parser there is safe: signals are only
  ever delivered to the main thread. At the end of input the loop waits for the answers
  still due (:mod:`~automium.mcp_server.inflight`) before the SDK learns of it;
- a *daemon writer thread* writes each outgoing line, so a client that stops reading
  blocks no event loop and no exit;
- the event loop runs the SDK's server on memory streams, exactly as ``stdio_server``
  feeds it.

The threads and the loop meet in two hand-offs and nothing else: the reader gives the loop
one message at a time with ``call_soon_threadsafe`` and waits until the SDK has taken it,
and the loop queues lines for the writer. Neither spawns a task per message, as a portal
call does (that cost showed on every call), and once the loop is gone a thread's next
hand-off fails and ends the thread quietly.

Every way a session ends is a clean exit with code 0 and nothing on stderr but logs: stdin
closing (once what was asked is answered and written), SIGINT, SIGTERM (the MCP shutdown sequence:
close stdin, then SIGTERM) and a closed stdout (the client is gone; noticed at the next
write). Back-pressure is end to end: the SDK's streams have a zero-size buffer, the reader
waits until its message is taken, at most 64 requests are in flight and the writer's queue
is bounded, so a client that floods stdin, or stops reading, is read only as fast as the
server answers it and reads its answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import queue
import signal
import threading
from collections.abc import Callable
from typing import Any

import anyio
from anyio import CancelScope
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp import types
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

QUEUED_LINES = 16
"""Lines the writer may have queued: a client that stops reading holds up the loop after
that many (the loop keeps serving other tasks while it waits)."""

_FULL_QUEUE_POLL_S = 0.005


def serve_stdio() -> None:
    """Serve one session on stdin/stdout until it ends (see the module docstring)."""
    anyio.run(_serve)


async def _serve() -> None:
    server = build_server()
    with claimed_stdio() as (wire_in, wire_out):
        await serve_session(server, wire_in, wire_out)


class _Inbox:
    """Reader thread -> event loop, one message at a time: :meth:`put` returns once the SDK
    has taken the message, so the reader reads no further ahead than the server consumes."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._offers, self._received = anyio.create_memory_object_stream[SessionMessage | None](1)
        self._taken = threading.Semaphore(0)

    def put(self, message: SessionMessage | None) -> None:
        """Called on the reader thread; ``None`` says the input ended."""
        self._loop.call_soon_threadsafe(self._offer, message)
        if message is not None:
            self._taken.acquire()

    def _offer(self, message: SessionMessage | None) -> None:
        with contextlib.suppress(anyio.BrokenResourceError):  # the session is ending
            self._offers.send_nowait(message)

    async def pump(
        self, to_sdk: MemoryObjectSendStream[SessionMessage | Exception], inflight: InFlight
    ) -> None:
        """Hand each message to the SDK; at the end of input, once the answers still due
        are sent (or :data:`~automium.mcp_server.inflight.DRAIN_SECONDS` passed), end the
        SDK's read stream, which finishes the session."""
        async with to_sdk, self._received:
            async for message in self._received:
                if message is None:
                    await inflight.drained()
                    return
                if isinstance(message.message, types.JSONRPCRequest):
                    await inflight.room()  # a client that stops reading stops being read
                inflight.saw_inbound(message.message)  # before the SDK can answer it
                await to_sdk.send(message)
                self._taken.release()


async def serve_session(server: Server, wire_in: int, wire_out: int) -> None:
    """Run ``server`` on the two descriptors until stdin ends, stdout closes or a signal."""
    to_sdk, sdk_inbox = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    sdk_outbox, from_sdk = anyio.create_memory_object_stream[SessionMessage](0)
    lines: queue.Queue[bytes | None] = queue.Queue(QUEUED_LINES)
    loop = asyncio.get_running_loop()
    inbox = _Inbox(loop)
    writer_stopped = anyio.Event()
    inflight = InFlight()
    async with anyio.create_task_group() as tasks:
        tasks.start_soon(_stop_on_signals, tasks.cancel_scope)
        tasks.start_soon(inbox.pump, to_sdk, inflight)
        tasks.start_soon(_encode, from_sdk, lines, inflight)
        tasks.start_soon(_stop_when, writer_stopped, tasks.cancel_scope)
        _daemon("automium stdin", _read, wire_in, inbox, lines)
        _daemon("automium stdout", _write, wire_out, lines, _on_loop(loop, writer_stopped.set))
        await server.run(sdk_inbox, sdk_outbox, server.create_initialization_options())
        await writer_stopped.wait()  # stdin ended: the SDK's last answers reach the wire
        tasks.cancel_scope.cancel()


def _on_loop(loop: asyncio.AbstractEventLoop, callback: Callable[[], object]) -> Callable[[], None]:
    """``callback`` scheduled on ``loop`` from another thread (a no-op once it is closed)."""

    def schedule() -> None:
        with contextlib.suppress(RuntimeError):  # the loop is closed: the session is over
            loop.call_soon_threadsafe(callback)

    return schedule


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
    lines: queue.Queue[bytes | None],
    inflight: InFlight,
) -> None:
    async with messages:
        async for message in messages:
            # As the SDK's stdio writer serialises (aliases, only the fields set).
            text = message.message.model_dump_json(by_alias=True, exclude_unset=True)
            await _queue(lines, text.encode())
            inflight.saw_outbound(message.message)
    await _queue(lines, None)  # the SDK is done: the writer stops once the queue is written


async def _queue(lines: queue.Queue[bytes | None], line: bytes | None) -> None:
    # A full queue means the client stopped reading: wait without blocking the loop (rare,
    # so a short poll beats a wake-up from the writer for every line).
    while True:
        try:
            lines.put_nowait(line)
            return
        except queue.Full:
            await anyio.sleep(_FULL_QUEUE_POLL_S)


def _daemon(name: str, target: Callable[..., None], *args: Any) -> None:
    # Daemon: a thread blocked on a pipe must never keep the process alive after a session.
    threading.Thread(target=_quietly, args=(target, *args), name=name, daemon=True).start()


def _quietly(target: Callable[..., None], *args: Any) -> None:
    """Run a wire thread; whatever ends it (the loop gone at exit, …) prints no traceback."""
    try:
        target(*args)
    except BaseException as exc:  # a thread's uncaught exception prints a traceback
        log.debug("%s ended: %r", threading.current_thread().name, exc)


def _read(fd: int, inbox: _Inbox, lines: queue.Queue[bytes | None]) -> None:
    framer = LineFramer(MAX_LINE_BYTES, ID_WINDOW_BYTES)
    try:
        while chunk := _read_chunk(fd):
            for frame in framer.feed(chunk):
                _deliver(_decoded(frame), inbox, lines)
        for frame in framer.finish():
            _deliver(_decoded(frame), inbox, lines)
    finally:  # end of input: the SDK sees its read stream end and finishes the session
        inbox.put(None)


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


def _deliver(item: Inbound, inbox: _Inbox, lines: queue.Queue[bytes | None]) -> None:
    if isinstance(item, SessionMessage):
        inbox.put(item)
    elif isinstance(item, Reply):
        lines.put(item.line)  # blocks while the client is not reading: back-pressure


def _write(fd: int, lines: queue.Queue[bytes | None], stopped: Callable[[], None]) -> None:
    try:
        while (line := lines.get()) is not None:
            _write_all(fd, line + b"\n")
    except OSError as exc:  # EPIPE: the client closed its end of stdout
        log.info("stdout closed (%s); ending the session", exc.strerror)
    finally:
        stopped()


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
