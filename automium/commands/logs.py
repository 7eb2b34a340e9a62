"""Where every command logs: stderr, at the level ``--log-level`` asks for."""

from __future__ import annotations

import logging
import sys


def log_to_stderr(level: str) -> None:
    # stderr only: on stdio, stdout belongs to JSON-RPC.
    logging.basicConfig(
        stream=sys.stderr, level=level, format="%(levelname)s %(name)s: %(message)s"
    )
