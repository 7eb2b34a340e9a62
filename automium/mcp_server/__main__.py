"""``python -m automium.mcp_server``: serve stdio, exactly like ``automium serve``."""

import sys

# First, before anything else is imported: a server never writes bytecode (no filesystem
# writes). Only the two package ``__init__`` modules, which import nothing, come before.
sys.dont_write_bytecode = True

from automium.cli import main  # noqa: E402

if __name__ == "__main__":
    raise SystemExit(main([*sys.argv[1:], "serve"]))
