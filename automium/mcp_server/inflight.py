"""The requests the SDK has not answered yet, so that stdin closing loses no answer.

When its read stream ends, the SDK cancels every request still in flight ("their callers
are already gone"). Over stdio that is not so: closing stdin is how a client says it has
nothing more to ask (``automium serve < requests.jsonl``, or MCP's shutdown sequence, in
which the client then waits for the server to exit), and it still reads stdout. So the
transport tells the SDK about the end of input only once every request it handed over has
been answered or cancelled by the client — or after :data:`DRAIN_SECONDS`, whichever
comes first; SIGTERM stops the session at once either way.
"""

from __future__ import annotations

from typing import Any

import anyio
from mcp import types

DRAIN_SECONDS = 10.0
"""The longest stdin closing waits for answers still due (the slowest v1 call takes ~4 s)."""

MAX_IN_FLIGHT = 64
"""Requests the SDK may hold unanswered: the next one waits until one is answered, and so
do the reader and a client that writes on without reading its answers. The SDK runs each
request as a task that keeps its answer until the answer is written, so without this a
client that never reads made the server grow without bound (20,000 calls: 200 MiB in 3 s)."""


class InFlight:
    """Ids of requests handed to the SDK and not yet answered. Used on the event loop only."""

    def __init__(self) -> None:
        self._ids: set[str] = set()
        self._idle = anyio.Event()
        self._idle.set()
        self._freed: anyio.Event | None = None

    def saw_inbound(self, message: types.JSONRPCMessage) -> None:
        """A message about to reach the SDK: a request is now due an answer; a cancelled
        one no longer is (the SDK answers nothing once a request is cancelled)."""
        if isinstance(message, types.JSONRPCRequest):
            self._ids.add(str(message.id))
            self._idle = anyio.Event() if self._idle.is_set() else self._idle
        elif (
            isinstance(message, types.JSONRPCNotification)
            and message.method == "notifications/cancelled"
        ):
            self._settle((message.params or {}).get("requestId"))

    def saw_outbound(self, message: types.JSONRPCMessage) -> None:
        """A message the SDK sent: a response settles its request."""
        if isinstance(message, types.JSONRPCResponse | types.JSONRPCError):
            self._settle(message.id)

    async def room(self) -> None:
        """Return once fewer than :data:`MAX_IN_FLIGHT` requests are due an answer."""
        while len(self._ids) >= MAX_IN_FLIGHT:
            self._freed = anyio.Event()
            await self._freed.wait()

    async def drained(self, seconds: float = DRAIN_SECONDS) -> None:
        """Return once nothing is in flight, or after ``seconds``."""
        with anyio.move_on_after(seconds):
            await self._idle.wait()

    def _settle(self, request_id: Any) -> None:
        self._ids.discard(str(request_id))
        if self._freed is not None:
            self._freed.set()
        if not self._ids:
            self._idle.set()
