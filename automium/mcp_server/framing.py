"""Newline framing of the stdio byte stream, with a size cap that costs no memory.

The SDK's reader (``async for line in stdin``) holds a whole line before it looks at it,
so one 100 MB line costs 100 MB of text and then ~37x that while it is parsed. This framer
is fed chunks of at most a few KiB from the pipe and holds at most ``max_bytes`` of the
current line. Once a line outgrows that, it keeps only its first and last ``window`` bytes
(where a request's ``id`` is: see :mod:`automium.mcp_server.envelope`), counts the rest
and discards it chunk by chunk until the newline, then reports the line as
:class:`Oversized`. Memory stays at ``max_bytes`` plus a chunk whatever the line's length.

Lines end at ``\\n``; a ``\\r`` before it is dropped (CRLF clients). A lone ``\\r`` is not a
line end (MCP's stdio framing is newline-delimited; inside a line it is JSON whitespace).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Line:
    """A complete line, without its line end, at most the framer's ``max_bytes`` long."""

    data: bytes


@dataclass(frozen=True)
class Oversized:
    """A line longer than ``max_bytes``: its first and last bytes, and its full length."""

    head: bytes
    tail: bytes
    size: int


Frame = Line | Oversized


class LineFramer:
    """Feed it chunks, get back the lines they complete (see the module docstring)."""

    def __init__(self, max_bytes: int, window: int) -> None:
        if not 0 < window <= max_bytes:
            raise ValueError("the window must be positive and within max_bytes")
        self._max = max_bytes
        self._window = window
        self._line = bytearray()
        self._head: bytes | None = None  # set once the current line is over the cap
        self._tail = b""
        self._size = 0

    def feed(self, chunk: bytes) -> list[Frame]:
        frames: list[Frame] = []
        start = 0
        while (newline := chunk.find(b"\n", start)) >= 0:
            self._take(chunk[start:newline])
            frames.append(self._end_line())
            start = newline + 1
        self._take(chunk[start:])
        return frames

    def finish(self) -> list[Frame]:
        """At end of input: the last line, if it had no line end (the SDK reads it too)."""
        if self._head is None and not self._line:
            return []
        return [self._end_line()]

    def _take(self, piece: bytes) -> None:
        if not piece:
            return
        if self._head is None and len(self._line) + len(piece) <= self._max:
            self._line += piece
            return
        if self._head is None:  # this piece takes the line over the cap: stop holding it
            held = bytes(self._line) + piece
            self._line = bytearray()
            self._head, self._tail = held[: self._window], held[-self._window :]
            self._size = len(held)
            return
        self._size += len(piece)
        self._tail = (self._tail + piece[-self._window :])[-self._window :]

    def _end_line(self) -> Frame:
        frame: Frame
        if self._head is None:
            line = bytes(self._line)
            frame = Line(line[:-1] if line.endswith(b"\r") else line)
        else:
            tail = self._tail[:-1] if self._tail.endswith(b"\r") else self._tail
            size = self._size - (len(self._tail) - len(tail))
            frame = Oversized(self._head, tail, size)
        self._line, self._head, self._tail, self._size = bytearray(), None, b"", 0
        return frame
