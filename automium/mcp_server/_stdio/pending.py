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

from collections import deque

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

MAX_OWED_BYTES = 4 * 1024 * 1024
"""The JSON bytes of answers the server may owe at once, counted as the writer takes each
answer from the SDK (an owed answer is held as its JSON line, not as the SDK's objects,
which cost several times that) and, for an answer not made yet, as the largest of the last
:data:`_SIZES_KEPT` answers. The next request waits while the bytes owed reach it; one
answer is always let through. 4 MiB holds hundreds of ordinary answers (the largest v1
answer of ordinary size, compare_planners, is 19 KB) and ~2 of the largest (a compile with
both exports near the 1 MiB argument bound: ~2.4 MB). Measured with 32 such calls and a
client that never reads: the server grew by ~160 MiB without this bound, ~16 MiB with it."""

_SIZES_KEPT = 64


class PendingAnswers:
    """The ids of requests owed an answer. Used on the event loop only."""

    def __init__(self, limit: int = MAX_PENDING, max_bytes: int = MAX_OWED_BYTES) -> None:
        self._limit = limit
        self._max_bytes = max_bytes
        self._owed: set[RequestId] = set()
        self._sized: dict[RequestId, int] = {}  # owed answers already made: their bytes
        self._bytes = 0
        self._recent: deque[int] = deque(maxlen=_SIZES_KEPT)
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

    def sized(self, request_id: RequestId, size: int) -> None:
        """The answer to ``request_id`` is made: ``size`` bytes of JSON, owed until written."""
        key = coerce_request_id(request_id)
        self._recent.append(size)
        if key in self._owed and key not in self._sized:
            self._sized[key] = size
            self._bytes += size

    @property
    def owed_bytes(self) -> int:
        """The bytes of the answers made and owed, and an estimate of those not made yet."""
        unmade = len(self._owed) - len(self._sized)
        return self._bytes + unmade * max(self._recent, default=0)

    def settle(self, request_id: RequestId) -> None:
        """The answer to ``request_id`` was written, or the SDK dropped it."""
        key = coerce_request_id(request_id)
        if key not in self._owed:
            return
        self._owed.discard(key)
        self._bytes -= self._sized.pop(key, 0)
        self._freed.set()
        if not self._owed:
            self._idle.set()

    async def room(self) -> None:
        """Return once fewer than the limit of answers are owed, and fewer bytes than
        :data:`MAX_OWED_BYTES` (at least one answer is always let through)."""
        while len(self._owed) >= self._limit or (self._owed and self.owed_bytes >= self._max_bytes):
            self._freed = anyio.Event()
            await self._freed.wait()

    async def drained(self, seconds: float = DRAIN_SECONDS) -> None:
        """Return once no answer is owed, or after ``seconds``."""
        with anyio.move_on_after(seconds):
            await self._idle.wait()
