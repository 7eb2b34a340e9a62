"""Claim the process's stdin and stdout for the JSON-RPC wire, and make stdout non-blocking.

While the session runs, the wire is served from private duplicates of fds 0 and 1, fd 0
reads the null device and fd 1 points at stderr: a stray ``print`` or a library that
writes to stdout lands on stderr instead of corrupting the wire, and nothing can steal
bytes from stdin. This is what the SDK's ``stdio_server`` does too. The duplicates are
never closed: fds 0 and 1 are restored from them, and a closed descriptor's number could
be reused under a task that still holds it.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from collections.abc import Iterator


@contextlib.contextmanager
def claimed_stdio() -> Iterator[tuple[int, int]]:
    """``(wire_in, wire_out)`` descriptors for the session; fds 0 and 1 restored after."""
    wire_in, wire_out = _private_copy(0), _private_copy(1)
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        os.dup2(null, 0)
    finally:
        os.close(null)
    os.dup2(2, 1)
    try:
        yield wire_in, wire_out
    finally:
        with contextlib.suppress(OSError, ValueError):
            sys.stdout.flush()  # what a stray print buffered goes to stderr, not the wire
        os.dup2(wire_out, 1)
        os.dup2(wire_in, 0)


def _private_copy(fd: int) -> int:
    """A duplicate of ``fd`` numbered above 2, so restoring fds 0-2 can never clobber it."""
    too_low: list[int] = []
    copy = os.dup(fd)
    while copy <= 2:  # only when a standard descriptor was closed at startup
        too_low.append(copy)
        copy = os.dup(fd)
    for low in too_low:
        os.close(low)
    return copy


@contextlib.contextmanager
def non_blocking(fd: int) -> Iterator[None]:
    """``fd`` non-blocking while the session runs, when it is a pipe or a socket of its own
    (what an MCP client gives): a full pipe then waits in a task, not in the loop. A
    terminal, a file, or a pipe stderr writes to too, stays as it is: the mode belongs to
    the open file, which others share."""
    wire = os.fstat(fd)
    shared_with_stderr = os.path.samestat(wire, os.fstat(2))  # logs must never hit EAGAIN
    pipe = stat.S_ISFIFO(wire.st_mode) or stat.S_ISSOCK(wire.st_mode)
    if not pipe or shared_with_stderr or not os.get_blocking(fd):
        yield
        return
    os.set_blocking(fd, False)
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            os.set_blocking(fd, True)
