"""The MCP boundary: the only package that imports ``mcp``.

It validates nothing itself beyond routing, delegates each tool call to its row of
:mod:`automium.capabilities` (which checks the input contract and runs the domain), shapes
MCP results and converts domain errors. If the SDK changes, only this package changes.

Importing the package imports nothing at all (not even ``typing``):
``python -m automium.mcp_server`` imports it before its ``__main__`` can tell the
interpreter never to write bytecode, so everything else must load after that.
``build_server`` is resolved on first use.
"""

__all__ = ["build_server"]

# Not ``typing.TYPE_CHECKING``: a checker treats any name spelled so as true, and the
# interpreter imports nothing for it.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from automium.mcp_server.server import build_server


def __getattr__(name: str) -> object:
    if name == "build_server":
        from automium.mcp_server.server import build_server

        return build_server
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
