"""Run a module as ``python -m MODULE ARGS`` does, under an audit hook that reports on
stderr, at exit, everything the process opened for writing or changed on disk.

The test harness starts ``audit_writes.py automium.mcp_server`` instead of
``-m automium.mcp_server``. Before the hook
it imports only what the interpreter has loaded already (``sys``, ``os``, ``runpy``: built
in or frozen), so the report covers everything the server does from its first import on.
Each finding is one stderr line starting with :data:`MARK`, after the session has ended.
"""

import os
import runpy
import sys

MARK = "automium-audit-write: "
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
_CHANGES = ("os.mkdir", "os.rename", "os.remove", "os.rmdir", "os.truncate", "os.link")
_found: list[str] = []


def _audit(event: str, args: tuple[object, ...]) -> None:
    if event == "open":
        path, mode, flags = args
        writes = isinstance(mode, str) and any(letter in mode for letter in "wax+")
        if writes or (isinstance(flags, int) and flags & _WRITE_FLAGS):
            _found.append(f"open for writing {path!r} mode={mode!r} flags={flags!r}")
    elif event.startswith(_CHANGES) or event.startswith("os.symlink"):
        _found.append(f"{event} {args[0]!r}")


def main() -> None:
    module, *arguments = sys.argv[1:]
    sys.addaudithook(_audit)
    sys.argv = [module, *arguments]
    try:
        runpy.run_module(module, run_name="__main__", alter_sys=True)
    finally:
        sys.stderr.write("".join(f"{MARK}{finding}\n" for finding in _found))
        sys.stderr.flush()


if __name__ == "__main__":
    main()
