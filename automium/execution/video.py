"""A failed run's video, made from the run's own trace.

A failed verdict requires a video. Recording one for every run would cost every run a
screencast and an encoder; a trace with screenshots already holds the page's screencast
frames, with their times. So a failed run's video is those frames, at their real times,
sampled at :data:`FPS` and encoded to WebM (VP8) by ``ffmpeg`` (``AUTOMIUM_FFMPEG``, else on
``PATH``). Without ffmpeg there is no video, and the manifest says the kind is missing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import zipfile
from collections.abc import Sequence
from pathlib import Path

FPS = 5


def find_ffmpeg() -> str | None:
    return os.environ.get("AUTOMIUM_FFMPEG") or shutil.which("ffmpeg")


def frames(traces: Sequence[Path]) -> list[tuple[float, bytes]]:
    """Every screencast frame of the traces, as (time in ms, JPEG bytes), in time order."""
    found: list[tuple[float, bytes]] = []
    for trace in traces:
        with zipfile.ZipFile(trace) as archive:
            names = set(archive.namelist())
            events = [n for n in names if n.endswith(".trace")]
            for name in events:
                for line in archive.read(name).splitlines():
                    event = json.loads(line)
                    if event.get("type") != "screencast-frame":
                        continue
                    resource = event.get("file") or f"resources/{event.get('sha1')}"
                    # Wall time orders frames across the parts of a paused trace.
                    at = float(event.get("frameSwapWallTime") or event["timestamp"])
                    if resource in names:
                        found.append((at, archive.read(resource)))
    return sorted(found, key=lambda frame: frame[0])


def encode(traces: Sequence[Path], target: Path) -> bool:
    """Write the video of ``traces`` to ``target``; ``False`` when it cannot be made."""
    ffmpeg = find_ffmpeg()
    shots = frames(traces)
    if ffmpeg is None or not shots:
        return False
    step = 1000 / FPS
    sampled: list[bytes] = []
    at, index = shots[0][0], 0
    while at <= shots[-1][0] + step:
        while index + 1 < len(shots) and shots[index + 1][0] <= at:
            index += 1
        sampled.append(shots[index][1])
        at += step
    command = [
        ffmpeg,
        "-loglevel",
        "error",
        "-f",
        "image2pipe",
        "-framerate",
        str(FPS),
        "-c:v",
        "mjpeg",
        "-i",
        "pipe:0",
        "-vf",
        "scale=trunc(iw/2)*2:trunc(ih/2)*2",
        "-c:v",
        "libvpx",
        "-b:v",
        "500k",
        "-deadline",
        "realtime",
        "-an",
        "-f",
        "webm",
        "pipe:1",
    ]
    done = subprocess.run(command, input=b"".join(sampled), capture_output=True, check=False)
    if done.returncode != 0 or not done.stdout:
        return False
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
    with os.fdopen(os.open(target, flags, 0o644), "wb") as handle:
        handle.write(done.stdout)
    return True
