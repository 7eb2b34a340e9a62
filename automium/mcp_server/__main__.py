"""``python -m automium.mcp_server``: serve stdio, exactly like ``automium serve``."""

import sys

from automium.cli import main

if __name__ == "__main__":
    raise SystemExit(main([*sys.argv[1:], "serve"]))
