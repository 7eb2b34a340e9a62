"""The ``automium`` command: ``serve`` (what agents launch) and ``demo`` (a watched session)."""

from __future__ import annotations

import argparse
import logging
import sys

from automium import __version__


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="automium", description="Automium v1: a model-only browser-QA MCP server."
    )
    parser.add_argument("--version", action="version", version=f"automium {__version__}")
    parser.add_argument(
        "--log-level",
        default="WARNING",
        choices=["DEBUG", "INFO", "WARNING", "ERROR"],
        help="log level (logs always go to stderr)",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("serve", help="serve MCP over stdio (the command agents launch)")
    commands.add_parser(
        "demo", help="start the server, walk the developer-experience path, print a transcript"
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    # stderr only: on stdio, stdout belongs to JSON-RPC.
    logging.basicConfig(
        stream=sys.stderr, level=args.log_level, format="%(levelname)s %(name)s: %(message)s"
    )
    if args.command == "serve":
        from automium.mcp_server.stdio import serve_stdio  # noqa: PLC0415 - keeps --version instant

        serve_stdio()
        return 0
    from automium.mcp_server.demo import run_demo  # noqa: PLC0415

    return run_demo(log_level=args.log_level)
