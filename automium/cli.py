"""The ``automium`` command: ``serve`` (what agents launch) and ``demo`` (a watched session).

How ``serve`` ends over stdio: stdin closing, SIGINT, SIGTERM and the client closing stdout
(noticed at the next write) all stop it cleanly with exit code 0. Stopping on request is
the normal end of a session (MCP's stdio shutdown is "close stdin, then SIGTERM"), so it
is no failure and leaves no traceback; exit code 1 means the server could not serve, 2 a
usage error.
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys

from automium import __version__

_LOOPBACK = "127.0.0.1"
_DEFAULT_PORT = 4200


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a TCP port (0 to 65535)")
    return port


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
    serve = commands.add_parser(
        "serve", help="serve MCP over stdio (the command agents launch), or --http"
    )
    serve.add_argument(
        "--http",
        action="store_true",
        help=f"serve Streamable HTTP at http://{_LOOPBACK}:PORT/mcp instead of stdio",
    )
    serve.add_argument(
        "--host",
        help=f"with --http: {_LOOPBACK} (default) or localhost, which binds {_LOOPBACK}; "
        "any other address is refused",
    )
    serve.add_argument(
        "--port",
        type=_port,
        help=f"with --http: TCP port (default {_DEFAULT_PORT}); 0 picks a free one, "
        "printed on stderr",
    )
    commands.add_parser(
        "demo", help="start the server, walk the developer-experience path, print a transcript"
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    # stderr only: on stdio, stdout belongs to JSON-RPC.
    logging.basicConfig(
        stream=sys.stderr, level=args.log_level, format="%(levelname)s %(name)s: %(message)s"
    )
    if args.command == "serve" and args.http:
        port = _DEFAULT_PORT if args.port is None else args.port
        return _serve_http(args.host or _LOOPBACK, port)
    if args.command == "serve":
        if args.host is not None or args.port is not None:
            parser.error("serve: --host and --port need --http")
        return _serve_stdio()
    from automium.mcp_server.demo import run_demo  # noqa: PLC0415

    return run_demo(log_level=args.log_level)


def _serve_stdio() -> int:
    # SIGTERM stops the server as SIGINT does: the transport takes both over while it
    # serves; this covers the start-up and the teardown around it.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        from automium.mcp_server.stdio import serve_stdio  # noqa: PLC0415 - keeps --version instant

        serve_stdio()
    except KeyboardInterrupt:
        logging.getLogger("automium.mcp").info("stopped")
    return 0


def _serve_http(host: str, port: int) -> int:
    from automium.mcp_server.http import RefusedHost, serve_http  # noqa: PLC0415

    try:
        serve_http(host, port)
    except RefusedHost as exc:
        print(f"automium serve: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"automium serve: error: cannot listen on port {port}: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
