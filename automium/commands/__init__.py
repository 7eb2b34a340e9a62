"""The commands ``automium`` runs beside the MCP server, each a client of the packages below
it: ``demo`` (an MCP client of ``automium serve``, over stdio), ``export`` (the one place an
export writes a file) and the logging set-up every command shares. ``automium/cli.py``
parses the command line and hands each command here; the MCP server and the pure packages
never import this package."""
