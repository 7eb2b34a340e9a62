"""A process-wide audit-hook guard for the safety boundaries of the design.

``sys.addaudithook`` hooks can never be removed, so this module installs exactly one, at
import time, and it does nothing unless a :class:`Guard` is *armed*. While armed it records
(never blocks: a blocked call would surface as a tool error and hide what happened):

- ``open`` for writing, appending, creating or truncating (mode letters or ``os.O_*`` flags);
- ``open``, ``os.listdir``, ``os.scandir`` of a path outside the installed package data:
  the ``automium`` package directory and the ``automium_contracts`` package directory;
- the same of anything under the owned apps' files (``automium/corpus/apps/``): their seeds
  hold the test credentials, which only the app host reads, never the MCP server;
- every ``socket.*`` event, ``subprocess.Popen``, ``os.system``, ``os.exec``,
  ``os.posix_spawn``, ``os.spawn``, ``os.fork``, ``os.kill`` and the other events in
  :data:`FORBIDDEN_EVENTS` (filesystem changes, ``shutil.*``, URL and mail clients, …);
- reads of environment variables whose names look like secrets (:data:`SECRET_NAME`),
  through :class:`WatchedEnviron`, which a test swaps in for ``os.environ``.

The import system opens ``.py``/``.pyc`` files outside the package too; rather than allow
those (which would let any other read hide among them), callers warm everything up first —
build the server and make every call once — and arm the guard for a second full pass, in
which a lazy import would be a finding. The event loop's own plumbing (asyncio's self-pipe
``socketpair``) is created before a test's coroutine starts, so arming inside the coroutine
needs no exception for it: the guarded pass sees no socket event at all.
"""

from __future__ import annotations

import os
import re
import sys
import threading
from collections.abc import Iterator, MutableMapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib import resources

SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL", re.IGNORECASE)

FORBIDDEN_EVENTS = (
    "socket.",
    "subprocess.",
    "os.system",
    "os.exec",
    "os.posix_spawn",
    "os.spawn",
    "os.fork",
    "os.forkpty",
    "os.kill",
    "os.startfile",
    "os.remove",
    "os.rename",
    "os.mkdir",
    "os.rmdir",
    "os.link",
    "os.symlink",
    "os.truncate",
    "os.chmod",
    "os.chown",
    "os.utime",
    "os.putenv",
    "os.unsetenv",
    "shutil.",
    "tempfile.",
    "urllib.",
    "http.client.",
    "webbrowser.",
    "ftplib.",
    "smtplib.",
    "poplib.",
    "imaplib.",
    "sqlite3.",
    "ctypes.",
    "pty.",
)
"""Audit event names (or prefixes, ending in ``.``) that are a violation whenever armed."""

_READ_EVENTS = frozenset({"open", "os.listdir", "os.scandir", "glob.glob"})
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC


def seed_roots() -> tuple[str, ...]:
    """Package data the server must never open: the owned apps, seeds and credentials."""
    return (os.path.join(os.path.realpath(str(resources.files("automium.corpus"))), "apps"),)


def package_roots() -> tuple[str, ...]:
    """The directories whose files the server may read: its own package data."""
    return tuple(
        os.path.realpath(str(resources.files(package)))
        for package in ("automium", "automium_contracts")
    )


@dataclass
class Guard:
    """Records boundary violations while armed; see the module docstring."""

    allowed_roots: tuple[str, ...] = field(default_factory=package_roots)
    denied_roots: tuple[str, ...] = field(default_factory=seed_roots)
    violations: list[str] = field(default_factory=list)

    @contextmanager
    def armed(self) -> Iterator[Guard]:
        global _ARMED  # noqa: PLW0603 - the one hook is process-wide by nature
        if _ARMED is not None:
            raise RuntimeError("a guard is already armed")
        _ARMED = self
        try:
            yield self
        finally:
            _ARMED = None

    def audit(self, event: str, args: tuple[object, ...]) -> None:
        if event.startswith(FORBIDDEN_EVENTS):
            self.violations.append(f"{event} {_show(args)}")
        elif event in _READ_EVENTS and args:
            self._check_path(event, args)

    def note_environ_read(self, name: str) -> None:
        if SECRET_NAME.search(name):
            self.violations.append(f"environ read {name!r}")

    def _check_path(self, event: str, args: tuple[object, ...]) -> None:
        path = _path(args[0])
        if event == "open" and _writes(args):
            self.violations.append(f"open for writing {path!r} {_show(args[1:])}")
        elif path is None or not _under(path, self.allowed_roots):
            self.violations.append(f"{event} outside the package {path or args[0]!r}")
        elif _under(path, self.denied_roots):
            self.violations.append(f"{event} of an owned app's files {path!r}")


def _under(path: str, roots: tuple[str, ...]) -> bool:
    real = os.path.realpath(path)
    return any(real == root or real.startswith(root + os.sep) for root in roots)


def _path(value: object) -> str | None:
    if isinstance(value, str | bytes | os.PathLike):
        return os.fsdecode(os.fspath(value))
    return None  # a file descriptor: not a package file


def _writes(args: tuple[object, ...]) -> bool:
    mode = args[1] if len(args) > 1 else None
    flags = args[2] if len(args) > 2 else 0
    if isinstance(mode, str) and any(letter in mode for letter in "wax+"):
        return True
    return isinstance(flags, int) and bool(flags & _WRITE_FLAGS)


def _show(args: tuple[object, ...]) -> str:
    text = repr(args)
    return text if len(text) <= 200 else text[:199] + "…"


class WatchedEnviron(MutableMapping[str, str]):
    """``os.environ`` as seen by the code under test: every read of a secret-like name
    is reported to the armed guard (``get``, ``in``, ``[]``, ``items()`` and ``copy()``
    all go through ``__getitem__``)."""

    def __init__(self, real: MutableMapping[str, str]) -> None:
        self._real = real

    def __getitem__(self, name: str) -> str:
        if _ARMED is not None:
            _ARMED.note_environ_read(name)
        return self._real[name]

    def __setitem__(self, name: str, value: str) -> None:
        self._real[name] = value

    def __delitem__(self, name: str) -> None:
        del self._real[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._real)

    def __len__(self) -> int:
        return len(self._real)

    def copy(self) -> dict[str, str]:
        return {name: self[name] for name in self}


_ARMED: Guard | None = None
_busy = threading.local()  # the hook's own work (realpath, …) must not audit itself


def _hook(event: str, args: tuple[object, ...]) -> None:
    guard = _ARMED
    if guard is None or getattr(_busy, "active", False):
        return
    _busy.active = True
    try:
        guard.audit(event, args)
    finally:
        _busy.active = False


sys.addaudithook(_hook)
