"""One stdio session: a reader task, a writer, and the SDK's server between them.

- the *reader* waits until stdin is readable, reads up to 64 KiB, frames lines
  (:mod:`.lines`) and decodes each one (:mod:`.decoding`): a message goes to the SDK, a
  refusal straight to stdout as a JSON-RPC error. It reads on only once the SDK has taken
  every message of the chunk, and once fewer than 64 answers (and 4 MiB of them) are owed
  (:mod:`.pending`). At the end of input it waits for the answers still owed before the
  SDK learns of it;
- the *writer* writes each outgoing line to stdout, which is non-blocking when it is a
  pipe or a socket: a line goes out at once while the pipe has room, and otherwise the
  task writing it waits until the client reads, never the loop;
- the SDK's server runs on memory streams between them, exactly as ``stdio_server``
  feeds it.

Two hand-offs to threads per request (a read and a write) cost more than the smaller
calls themselves on a 2-core machine: waking another thread, often on the other CPU,
and coming back cold. The loop already waits on the pipes between requests.

Every way a session ends is a clean exit with code 0 and nothing on stderr but logs: stdin
closing (once what was asked is answered and written), SIGINT, SIGTERM (the MCP shutdown
sequence: close stdin, then SIGTERM) and a closed stdout (the client is gone; noticed at
the next write). Back-pressure is end to end: the SDK's streams have a zero-size buffer,
the reader reads no further ahead than the SDK takes, at most 64 answers and 4 MiB of their
JSON are owed, and an answer waits for the client to read the last one, so a client that
floods stdin, or stops reading, is read only as fast as the server answers it and reads
its answers.
"""

from __future__ import annotations

import logging
import math
import os
import signal
from collections.abc import AsyncIterator
from typing import Any

import anyio
import anyio.lowlevel
from anyio import CancelScope
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp import types
from mcp.server import Server
from mcp.shared.message import ServerMessageMetadata, SessionMessage

from automium.mcp_server._stdio.decoding import MAX_LINE_BYTES, Inbound, Reply, decode, error_line
from automium.mcp_server._stdio.lines import Frame, LineFramer
from automium.mcp_server._stdio.pending import PendingAnswers

log = logging.getLogger("automium.mcp")

CHUNK_BYTES = 65536
"""How much one read of stdin takes at most (the pipe holds 64 KiB on Linux)."""


async def serve_session(server: Server, wire_in: int, wire_out: int) -> None:
    """Run ``server`` on the two descriptors until stdin ends, stdout closes or a signal."""
    to_sdk, sdk_inbox = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    sdk_outbox, from_sdk = anyio.create_memory_object_stream[SessionMessage](0)
    pending = PendingAnswers()
    async with anyio.create_task_group() as tasks:
        stdout = _Stdout(wire_out, tasks.cancel_scope)
        tasks.start_soon(_stop_on_signals, tasks.cancel_scope)
        tasks.start_soon(_read, wire_in, to_sdk, stdout, pending)
        answered = anyio.Event()
        tasks.start_soon(_write_answers, from_sdk, stdout, pending, answered)
        await server.run(sdk_inbox, sdk_outbox, server.create_initialization_options())
        await answered.wait()  # stdin ended: the SDK's last answers reach the wire
        tasks.cancel_scope.cancel()


class _Stdout:
    """Whole lines to stdout, one at a time; a closed stdout ends the session."""

    def __init__(self, fd: int, session: CancelScope) -> None:
        self._fd = fd
        self._session = session
        self._turn = anyio.Lock()  # an answer and a refusal never interleave their bytes

    async def write(self, line: bytes) -> None:
        data = memoryview(line + b"\n")
        async with self._turn:
            try:
                while data:
                    try:
                        data = data[os.write(self._fd, data) :]
                    except BlockingIOError:  # the pipe is full: the client is not reading
                        await anyio.wait_writable(self._fd)
            except OSError as exc:  # EPIPE: the client closed its end of stdout
                log.info("stdout closed (%s); ending the session", exc.strerror)
                self._session.cancel()
                await anyio.lowlevel.checkpoint()  # the cancellation ends the caller here


async def _stop_on_signals(scope: CancelScope) -> None:
    with anyio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        async for signum in signals:
            log.info("stopping on %s", signal.Signals(signum).name)
            scope.cancel()
            return


async def _write_answers(
    messages: MemoryObjectReceiveStream[SessionMessage],
    stdout: _Stdout,
    pending: PendingAnswers,
    answered: anyio.Event,
) -> None:
    """Take each message from the SDK at once, as its JSON line (the SDK's objects, ~8x its
    size, are freed), and write the lines in order: what a client that does not read is
    owed is held as bytes, which :class:`~.pending.PendingAnswers` bounds."""
    lines_in, lines_out = anyio.create_memory_object_stream[tuple[bytes, types.RequestId | None]](
        math.inf
    )
    async with anyio.create_task_group() as tasks:
        tasks.start_soon(_write_lines, lines_out, stdout, pending)
        async with messages, lines_in:
            async for message in messages:
                # As the SDK's stdio writer serialises (aliases, only the fields set).
                answer = message.message
                line = answer.model_dump_json(by_alias=True, exclude_unset=True).encode()
                answer_id = (
                    answer.id
                    if isinstance(answer, types.JSONRPCResponse | types.JSONRPCError)
                    else None
                )
                if answer_id is not None:
                    pending.sized(answer_id, len(line))
                del message, answer
                lines_in.send_nowait((line, answer_id))
    answered.set()  # the SDK is done and all it said is written


async def _write_lines(
    lines: MemoryObjectReceiveStream[tuple[bytes, types.RequestId | None]],
    stdout: _Stdout,
    pending: PendingAnswers,
) -> None:
    async with lines:
        async for line, answer_id in lines:
            await stdout.write(line)
            if answer_id is not None:
                pending.settle(answer_id)


async def _read(
    fd: int,
    to_sdk: MemoryObjectSendStream[SessionMessage | Exception],
    stdout: _Stdout,
    pending: PendingAnswers,
) -> None:
    """Frame, decode and deliver stdin until it ends; then, once the answers still due are
    written (or :data:`~.pending.DRAIN_SECONDS` passed), end the SDK's
    read stream, which finishes the session."""
    framer = LineFramer(MAX_LINE_BYTES)
    async with to_sdk:
        async for chunk in _chunks(fd):
            for frame in framer.feed(chunk):
                await _deliver(_decoded(frame), to_sdk, stdout, pending)
        for frame in framer.finish():
            await _deliver(_decoded(frame), to_sdk, stdout, pending)
        await pending.drained()


async def _chunks(fd: int) -> AsyncIterator[bytes]:
    """What stdin holds, a read at a time, each once it is readable (a file, or the null
    device, cannot be waited on, and reading it never waits)."""
    waitable = True
    while True:
        if waitable:
            try:
                await anyio.wait_readable(fd)
            except OSError:
                waitable = False
        try:
            chunk = os.read(fd, CHUNK_BYTES)
        except OSError as exc:  # stdin unreadable (EIO, …): as good as closed
            log.info("stdin failed (%s); ending the session", exc.strerror)
            return
        if not chunk:
            return
        yield chunk


def _decoded(frame: Frame) -> Inbound:
    try:
        return decode(frame)
    except Exception:  # a bug here must cost one line, not the session (decode never raises)
        log.exception("a stdio line could not be decoded; it is dropped")
        return None


async def _deliver(
    item: Inbound,
    to_sdk: MemoryObjectSendStream[SessionMessage | Exception],
    stdout: _Stdout,
    pending: PendingAnswers,
) -> None:
    if isinstance(item, Reply):
        await stdout.write(item.line)  # waits while the client is not reading: back-pressure
        return
    if item is None:
        return
    message = item.message
    if isinstance(message, types.JSONRPCRequest):
        if pending.owes(message.id):
            await stdout.write(_reused_id(message.id).line)
            return
        await pending.room()  # a client that stops reading stops being read
        pending.expect(message.id)  # before the SDK can answer it
        item = SessionMessage(message, metadata=_settled_unanswered(pending, message.id))
    await to_sdk.send(item)


def _settled_unanswered(pending: PendingAnswers, request_id: types.RequestId) -> Any:
    """Metadata through which the SDK says it dropped the answer (a cancelled request)."""

    async def dropped() -> None:
        pending.settle(request_id)

    return ServerMessageMetadata(on_request_unanswered=dropped)


def _reused_id(request_id: types.RequestId) -> Reply:
    log.info("refused a request reusing the id of one not yet answered")
    return error_line(
        None,
        types.INVALID_REQUEST,
        "Invalid request: its id is the id of a request not yet answered; JSON-RPC ids must "
        "be unique among pending requests. Send it again with another id.",
        {"code": "invalid_input", "requestId": request_id},
    )
