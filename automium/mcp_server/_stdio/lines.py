"""Newline framing of the stdio byte stream, with a size cap that costs no memory.

The SDK's reader (``async for line in stdin``) holds a whole line before it looks at it,
so one 100 MB line costs 100 MB of text and then ~37x that while it is parsed. This framer
is fed chunks of at most 64 KiB from the pipe and holds at most ``max_bytes`` of the
current line. Once a line outgrows that, it counts the rest and discards it chunk by chunk
until the newline, then reports the line as :class:`Oversized`. Memory stays at
``max_bytes`` plus a chunk whatever the line's length.

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
    """A line longer than ``max_bytes``, discarded unread: only its length is kept."""

    size: int


Frame = Line | Oversized


class LineFramer:
    """Feed it chunks, get back the lines they complete (see the module docstring)."""

    def __init__(self, max_bytes: int) -> None:
        if max_bytes <= 0:
            raise ValueError("max_bytes must be positive")
        self._max = max_bytes
        self._line = bytearray()
        self._over = False  # set once the current line is over the cap
        self._size = 0
        self._ends_in_cr = False  # of what was discarded: a CRLF's CR is no part of the line

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
        if not self._over and not self._line:
            return []
        return [self._end_line()]

    def _take(self, piece: bytes) -> None:
        if not piece:
            return
        if not self._over and len(self._line) + len(piece) <= self._max:
            self._line += piece
            return
        if not self._over:  # this piece takes the line over the cap: stop holding it
            self._over, self._size = True, len(self._line)
            self._line = bytearray()
        self._size += len(piece)
        self._ends_in_cr = piece.endswith(b"\r")

    def _end_line(self) -> Frame:
        frame: Frame
        if self._over:
            frame = Oversized(self._size - self._ends_in_cr)
        else:
            line = bytes(self._line)
            frame = Line(line[:-1] if line.endswith(b"\r") else line)
        self._line, self._over, self._size, self._ends_in_cr = bytearray(), False, 0, False
        return frame
