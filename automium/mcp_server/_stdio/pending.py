"""The answers the server owes the client and has not written yet: the in-flight bound.

The SDK runs each request as a task, and a task whose answer cannot be written (the client
is not reading) keeps it, so what bounds the server's memory is the number of answers owed
and not yet written. One is owed for each request handed to the SDK, errors included,
until it is *written* to stdout, or *dropped*: the SDK answers nothing for a request the
client cancelled, and says so through ``on_request_unanswered``; a cancel alone frees
nothing, since the request may still be running or its answer waiting to be written. The
transport's own error lines are written by the reader before it reads on, so at most one
of those is ever owed.

Ids are unique among the requests owed an answer, as JSON-RPC requires: a request reusing
one is refused (the SDK would otherwise run both and answer twice with one id, or, in its
table of running requests, let the second hide the first). They compare as the SDK
correlates them (``7`` and ``"7"`` are one id).

When its read stream ends, the SDK cancels every request still running ("their callers
are already gone"). Over stdio that is not so: closing stdin is how a client says it has
nothing more to ask (``automium serve < requests.jsonl``, or MCP's shutdown sequence, in
which the client then waits for the server to exit), and it still reads stdout. So the
transport tells the SDK about the end of input only once nothing is owed, or after
:data:`DRAIN_SECONDS`, whichever comes first; SIGTERM stops the session at once either way.
"""

from __future__ import annotations

import anyio
from mcp.shared.dispatcher import coerce_request_id
from mcp.types import RequestId

DRAIN_SECONDS = 10.0
"""The longest stdin closing waits for answers still due (the slowest v1 call takes ~4 s)."""

MAX_PENDING = 64
"""Answers the server may owe at once: the next request waits until one is written or
dropped, and so do the reader and a client that writes on without reading. Without a real
count (ids counted once, a cancel freeing its slot at once), a client that never read
made the server hold 1.19 GB after 20,000 calls."""


class PendingAnswers:
    """The ids of requests owed an answer. Used on the event loop only."""

    def __init__(self, limit: int = MAX_PENDING) -> None:
        self._limit = limit
        self._owed: set[RequestId] = set()
        self._idle = anyio.Event()
        self._idle.set()
        self._freed = anyio.Event()

    def __len__(self) -> int:
        return len(self._owed)

    def owes(self, request_id: RequestId) -> bool:
        """Whether a request with this id is still owed its answer."""
        return coerce_request_id(request_id) in self._owed

    def expect(self, request_id: RequestId) -> None:
        """A request is about to reach the SDK: its answer is owed from now on."""
        self._owed.add(coerce_request_id(request_id))
        if self._idle.is_set():
            self._idle = anyio.Event()

    def settle(self, request_id: RequestId) -> None:
        """The answer to ``request_id`` was written, or the SDK dropped it."""
        key = coerce_request_id(request_id)
        if key not in self._owed:
            return
        self._owed.discard(key)
        self._freed.set()
        if not self._owed:
            self._idle.set()

    async def room(self) -> None:
        """Return once fewer than the limit of answers are owed."""
        while len(self._owed) >= self._limit:
            self._freed = anyio.Event()
            await self._freed.wait()

    async def drained(self, seconds: float = DRAIN_SECONDS) -> None:
        """Return once no answer is owed, or after ``seconds``."""
        with anyio.move_on_after(seconds):
            await self._idle.wait()
