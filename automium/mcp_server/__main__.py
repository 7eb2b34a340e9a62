"""``python -m automium.mcp_server``: serve stdio, as ``automium serve`` does (without its
options)."""

import sys

# First, before anything else is imported: a server never writes bytecode (no filesystem
# writes). Only the package ``__init__`` modules, which import nothing, come before.
sys.dont_write_bytecode = True

from automium.commands.logs import log_to_stderr  # noqa: E402
from automium.mcp_server.running import serve  # noqa: E402

if __name__ == "__main__":
    log_to_stderr("WARNING")
    raise SystemExit(serve())
