"""A client that writes calls and never reads its answers holds the server back: its memory
stays under 1.5x its idle RSS, and comes back once the client reads.

Four shapes of flood, each thousands of unread lines: calls that all reuse one id, pings
that all reuse one id, calls each followed by a cancel, and ``compare_planners`` calls (the
largest answer, 19 KB) with ids of their own. The client writes from a thread until the
server stops reading (the pipes are full and the server owes its 64 answers), the test
reads the server's RSS and its peak, then reads every answer, sends a probe call and reads
the RSS again. ``CI=true`` floods with more lines; ``pytest -s`` prints what each shape
cost.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.cases import COMPARE, reference_journey
from tests.safety.raw_stdio import PROTOCOL_VERSION, SERVER, call, request, without_coverage

pytestmark = pytest.mark.subprocess

IN_CI = os.environ.get("CI") == "true"
FLOOD = 20_000 if IN_CI else 6_000
COMPARES = 6_000 if IN_CI else 1_500  # each is computed in full once read: ~5 ms apiece
RSS_BOUND = 1.5  # times the idle RSS
STALLED_SECONDS = 1.0  # no byte written for this long: the server has stopped reading
WAIT_SECONDS = 120.0


def _memory_kib(pid: int, field: str) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(ln for ln in status.splitlines() if ln.startswith(f"{field}:")).split()[1])


@dataclass
class Flooded:
    idle_kib: int
    stalled_kib: int
    peak_kib: int
    drained_kib: int
    answers: int


class _Writer(threading.Thread):
    """Writes ``lines`` to the server's stdin, counting how far it got."""

    def __init__(self, fd: int, lines: list[bytes]) -> None:
        super().__init__(daemon=True)
        self.fd, self.lines, self.written, self.last_progress = fd, lines, 0, time.monotonic()

    def run(self) -> None:
        with contextlib.suppress(OSError):
            for line in self.lines:
                data = memoryview(line + b"\n")
                while data:
                    data = data[os.write(self.fd, data) :]
                    self.last_progress = time.monotonic()
                self.written += 1


@contextlib.contextmanager
def _server(tmp_path: Path) -> Iterator[subprocess.Popen[bytes]]:
    with (tmp_path / "stderr.log").open("wb") as stderr:
        process = subprocess.Popen(
            SERVER,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            cwd=tmp_path,
            env=without_coverage(),
        )
        try:
            yield process
        finally:
            if process.poll() is None:
                process.kill()
            process.wait(timeout=WAIT_SECONDS)
            for pipe in (process.stdin, process.stdout):
                if pipe is not None:
                    pipe.close()


def _answer_for(stdout: object, wanted: str, seen: list[int]) -> None:
    """Read answers until the one with id ``wanted``; count every line read."""
    for line in stdout:  # type: ignore[attr-defined]
        seen[0] += 1
        if json.loads(line).get("id") == wanted:
            return
    raise AssertionError(f"stdout ended before the answer to {wanted!r}")


def flood(
    tmp_path: Path, warm_up: bytes, lines: list[bytes], stalled_seconds: float = STALLED_SECONDS
) -> Flooded:
    with _server(tmp_path) as server:
        assert server.stdin is not None
        assert server.stdout is not None
        stdin, stdout, read = server.stdin.fileno(), server.stdout, [0]
        hello = {
            "protocolVersion": PROTOCOL_VERSION,
            "capabilities": {},
            "clientInfo": {"name": "flood", "version": "0"},
        }
        os.write(stdin, request("hello", "initialize", hello) + b"\n")
        _answer_for(stdout, "hello", read)
        os.write(stdin, b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        os.write(stdin, warm_up + b"\n")
        _answer_for(stdout, "warm-up", read)
        idle = _memory_kib(server.pid, "VmRSS")

        writer = _Writer(stdin, lines)
        writer.start()
        while writer.is_alive() and time.monotonic() - writer.last_progress < stalled_seconds:
            time.sleep(0.1)
        assert writer.is_alive(), "the server read every line without being read: no flood"
        stalled, peak = _memory_kib(server.pid, "VmRSS"), _memory_kib(server.pid, "VmHWM")

        drained = threading.Thread(target=_answer_for, args=(stdout, "probe", read), daemon=True)
        drained.start()
        writer.join(WAIT_SECONDS)
        os.write(stdin, call("probe", "automium_list_apps", {}) + b"\n")
        drained.join(WAIT_SECONDS)
        assert not drained.is_alive(), "the probe after the flood was not answered"
        after = _memory_kib(server.pid, "VmRSS")
        server.stdin.close()
        assert server.wait(timeout=WAIT_SECONDS) == 0
    stderr = (tmp_path / "stderr.log").read_bytes()
    assert b"Traceback" not in stderr
    return Flooded(idle, stalled, peak, after, read[0])


def _report(shape: str, count: int, seen: Flooded) -> None:
    print(
        f"\n{shape} ({count:,} lines, not read): RSS idle {seen.idle_kib / 1024:.1f} MiB, "
        f"stalled {seen.stalled_kib / 1024:.1f} MiB, peak {seen.peak_kib / 1024:.1f} MiB "
        f"({seen.peak_kib / seen.idle_kib:.2f}x), after draining "
        f"{seen.drained_kib / 1024:.1f} MiB; {seen.answers:,} lines read"
    )


def _cancel(request_id: object) -> bytes:
    params = {"requestId": request_id, "reason": "flood"}
    return json.dumps(
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": params}
    ).encode()


def _big_compile() -> tuple[str, dict[str, object]]:
    """A compile call near the 1 MiB bound of arguments, asking for both exports: an answer
    of ~2.4 MB, ~6 MiB of the SDK's objects."""
    journey = reference_journey()
    fill = journey["steps"][1]
    steps = [dict(fill, id=f"s{i}", value="m" * 400, note="n" * 400) for i in range(998)]
    on_home = {"id": "on-home", "kind": "route_is", "route": "home", "afterStep": "s0"}
    journey |= {
        "steps": [journey["steps"][0], *steps, journey["steps"][2]],
        "assertions": [on_home],
        "export": ["ts", "py"],
    }
    journey.pop("successChecks", None)  # the worked example's, of a page these steps never reach
    return "automium_compile_journey", journey


COMPARE_CALL = ("automium_compare_planners", COMPARE)
SHAPES = {
    "compare_planners calls with one id": (
        call("warm-up", *COMPARE_CALL),
        [call(7, *COMPARE_CALL)] * FLOOD,
    ),
    "pings with one id": (
        request("warm-up", "ping"),
        [request(7, "ping")] * 20_000,
    ),
    "calls each followed by a cancel": (
        call("warm-up", *COMPARE_CALL),
        [line for i in range(FLOOD) for line in (call(i, *COMPARE_CALL), _cancel(i))],
    ),
    "compare_planners calls, each its own id": (
        call("warm-up", *COMPARE_CALL),
        [call(i, *COMPARE_CALL) for i in range(COMPARES)],
    ),
}
# Each big compile keeps the server from reading for ~2 s, so the server has stopped reading
# only once the client has not written for longer: without a bound on the bytes owed, it
# read all 24 (and owed ~6 MiB apiece), and no flood was seen.
BIG_COMPILES = "big compile calls with exports"
STALLED_FOR = {BIG_COMPILES: 8.0}
if IN_CI:  # each is computed in full once read
    SHAPES[BIG_COMPILES] = (
        call("warm-up", *_big_compile()),
        [call(i, *_big_compile()) for i in range(24)],
    )


@pytest.mark.parametrize("shape", SHAPES)
def test_a_client_that_never_reads_cannot_grow_the_server(shape: str, tmp_path: Path) -> None:
    warm_up, lines = SHAPES[shape]
    seen = flood(tmp_path, warm_up, lines, STALLED_FOR.get(shape, STALLED_SECONDS))
    _report(shape, len(lines), seen)
    assert seen.peak_kib < RSS_BOUND * seen.idle_kib
    assert seen.drained_kib < RSS_BOUND * seen.idle_kib
