"""An external planner: a command that speaks ``planner-adapter.v1`` as JSON lines on stdio.

One process per trial: each turn writes one ``PlannerRequest`` line to its stdin and reads
one ``PlannerDecision`` line from its stdout. A planner is untrusted, so every way it can
misbehave ends the trial as :class:`PlannerBroke`, bounded in time and memory:

- no answer line within ``timeout_s`` (the clock starts when the request is written);
- a line longer than ``MAX_LINE`` bytes, or that much output without a newline (a flood);
- an exit, or a closed stdout, before the answer;
- an answer that is not JSON, or not a decision of this schema version
  (:func:`~automium.planning.protocol.decision`).

The process starts in its own session with a scrubbed environment (``PATH``, a UTF-8
locale and the variables named with ``--planner-env``, nothing else), its stderr is
discarded, and it is killed, with its process group, when the trial ends.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from typing import Any

from automium.planning.protocol import PlannerBroke

Json = dict[str, Any]
MAX_LINE = 1 << 20  # 1 MiB: a snapshot-sized answer fits; a flood does not
_LOCALE = {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8"}


def scrubbed_environment(passed: Sequence[str], source: Mapping[str, str]) -> dict[str, str]:
    """What the planner process sees of the environment."""
    env = {"PATH": source.get("PATH", os.defpath), **_LOCALE}
    env.update({name: source[name] for name in passed if name in source})
    return env


class CommandPlanner:
    """A planner command; ``start`` launches it for a trial, ``close`` ends it."""

    def __init__(
        self,
        argv: Sequence[str],
        reference: Json,
        *,
        timeout_s: float = 30.0,
        env_names: Sequence[str] = (),
    ) -> None:
        self.argv = list(argv)
        self.reference = reference
        self.timeout_s = timeout_s
        self.env_names = tuple(env_names)
        self.process: subprocess.Popen[bytes] | None = None
        self.buffer = b""

    def start(self, journey: Json) -> None:
        del journey  # an external planner gets the goal, never the journey's steps
        self.close()
        self.buffer = b""
        try:
            self.process = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=scrubbed_environment(self.env_names, os.environ),
                start_new_session=True,
                close_fds=True,
            )
        except OSError as error:
            raise PlannerBroke(f"the planner command did not start: {error}") from None
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        os.set_blocking(self.process.stdout.fileno(), False)
        os.set_blocking(self.process.stdin.fileno(), False)

    def decide(self, request: Json) -> Json:
        process = self.process
        if process is None:
            raise PlannerBroke("the planner is not running")
        line = (json.dumps(request, ensure_ascii=False) + "\n").encode()
        deadline = time.monotonic() + self.timeout_s
        self._send(line, deadline)
        answer = self._line(deadline)
        try:
            value = json.loads(answer)
        except ValueError:
            shown = answer[:80].decode("utf-8", "replace")
            raise PlannerBroke(f"the answer is not JSON: {shown!r}") from None
        if not isinstance(value, dict):
            raise PlannerBroke(f"the answer is a JSON {type(value).__name__}, not an object")
        return value

    def _send(self, line: bytes, deadline: float) -> None:
        """Write the request; a planner that never reads it cannot block the runner."""
        process = self.process
        assert process is not None
        assert process.stdin is not None
        stdin = process.stdin.fileno()
        view = memoryview(line)
        with selectors.DefaultSelector() as selector:
            selector.register(stdin, selectors.EVENT_WRITE)
            while view:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise PlannerBroke(
                        f"the planner did not read its request within {self.timeout_s:g} s"
                    )
                if not selector.select(left):
                    continue
                try:
                    view = view[os.write(stdin, view) :]
                except BlockingIOError:
                    continue
                except OSError:
                    raise PlannerBroke(self._exited("before it read the request")) from None

    def _line(self, deadline: float) -> bytes:
        process = self.process
        assert process is not None
        assert process.stdout is not None
        stdout = process.stdout
        with selectors.DefaultSelector() as selector:
            selector.register(stdout, selectors.EVENT_READ)
            while b"\n" not in self.buffer:
                if len(self.buffer) > MAX_LINE:
                    raise PlannerBroke(f"the planner wrote over {MAX_LINE} bytes without an answer")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise PlannerBroke(f"no answer within {self.timeout_s:g} s")
                if not selector.select(left):
                    continue
                chunk = os.read(stdout.fileno(), 65536)
                if not chunk:
                    raise PlannerBroke(self._exited("before it answered"))
                self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        if len(line) > MAX_LINE:
            raise PlannerBroke(f"the answer is over {MAX_LINE} bytes")
        return line

    def _exited(self, when: str) -> str:
        process = self.process
        code = process.poll() if process is not None else None
        if code is None and process is not None:
            try:
                code = process.wait(timeout=0.5)
            except subprocess.TimeoutExpired:
                return f"the planner closed its output {when}"
        return f"the planner exited (code {code}) {when}"

    def kill(self) -> None:
        """End the planner's processes from any thread (a stop of the workers): the trial
        waiting on its answer reads the end of its output at once."""
        process = self.process
        if process is not None and process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)

    def close(self) -> None:
        process, self.process = self.process, None
        if process is None:
            return
        if process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        process.wait()
