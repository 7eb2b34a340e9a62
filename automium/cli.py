"""The ``automium`` command: ``serve`` (what agents launch), ``demo`` (a watched session),
``export`` (a journey as a Playwright test file), ``run`` (a journey run for real in
headless Chromium: see ``automium.execution.command``) and ``apps serve`` (the owned apps,
for a person's browser: see ``automium.hosting.serving``). ``demo``, ``export`` and the
logging set-up are the commands layer's (``automium.commands``).

How ``serve`` ends is :mod:`automium.mcp_server.running`'s to say; exit code 2 is also a
usage error.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from automium import __version__

if TYPE_CHECKING:
    import argparse


def _port(text: str) -> int:
    import argparse  # noqa: PLC0415 - see _parser

    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a TCP port (0 to 65535)")
    return port


def _seconds(text: str) -> float:
    import argparse  # noqa: PLC0415 - see _parser

    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds <= 3600:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds (0 to 3600)")
    return seconds


def _parser() -> argparse.ArgumentParser:
    # Imported here: what agents launch, `serve` with no option, starts without it.
    import argparse  # noqa: PLC0415

    from automium.defaults import LOOPBACK  # noqa: PLC0415
    from automium.mcp_server.running import DEFAULT_PORT  # noqa: PLC0415

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
        help=f"serve Streamable HTTP at http://{LOOPBACK}:PORT/mcp instead of stdio",
    )
    serve.add_argument(
        "--host",
        help=f"with --http: {LOOPBACK} (default) or localhost, which binds {LOOPBACK}; "
        "any other address is refused",
    )
    serve.add_argument(
        "--port",
        type=_port,
        help=f"with --http: TCP port (default {DEFAULT_PORT}); 0 picks a free one, "
        "printed on stderr",
    )
    serve.add_argument(
        "--read-timeout",
        type=_seconds,
        metavar="SECONDS",
        help="with --http: how long a request body may take to arrive in full "
        "(default 10); a slower one is answered 408",
    )
    commands.add_parser(
        "demo", help="start the server, walk the developer-experience path, print a transcript"
    )
    export = commands.add_parser(
        "export", help="write a journey as a Playwright test file (nothing is run)"
    )
    export.add_argument("journey", metavar="JOURNEY", help="reference journey id or journey file")
    export.add_argument("--format", required=True, choices=["ts", "py"], help="test format")
    export.add_argument("--out", required=True, metavar="DIR", help="directory to write into")
    apps = commands.add_parser("apps", help="the corpus's owned web apps").add_subparsers(
        dest="apps_command", required=True
    )
    apps_serve = apps.add_parser(
        "serve",
        help=f"serve the owned apps on http://{LOOPBACK}:PORT for your own browser; "
        "prints each base URL",
    )
    apps_serve.add_argument("--app", help="serve this app only (default: every app)")
    apps_serve.add_argument(
        "--fixture", help="in this fixture's state (default: the app's first fixture)"
    )
    apps_serve.add_argument(
        "--port", type=_port, help="with one app: TCP port (default 0: a free one)"
    )
    apps_serve.add_argument(
        "--host", help=f"{LOOPBACK} (default) or localhost; any other address is refused"
    )
    from automium.execution.command import add_parser as add_run  # noqa: PLC0415
    from automium.execution.merging import add_parser as add_merge  # noqa: PLC0415

    add_run(commands)
    from automium.planning.arguments import add_arguments as add_planner  # noqa: PLC0415

    add_planner(commands.choices["run"])  # --planner: planner trials, judged by outcome
    add_merge(commands)
    return parser


def main(argv: list[str] | None = None) -> int:  # noqa: PLR0911 - a return per command
    # Before anything is imported lazily below: a server never writes bytecode (the
    # install compiles it; what is stale is compiled in memory each time instead).
    sys.dont_write_bytecode = True
    from automium.commands.logs import log_to_stderr  # noqa: PLC0415
    from automium.mcp_server.running import serve  # noqa: PLC0415

    if (sys.argv[1:] if argv is None else argv) == ["serve"]:
        # What agents launch, with nothing to parse: no parser is built (argparse is a few
        # ms of a cold start).
        log_to_stderr("WARNING")
        return serve()
    parser = _parser()
    args = parser.parse_args(argv)
    log_to_stderr(args.log_level)
    if args.command == "apps":
        from automium.hosting.serving import main as serve_apps  # noqa: PLC0415

        return serve_apps(args.app, args.fixture, args.port, args.host)
    if args.command == "serve":
        http_options = (args.host, args.port, args.read_timeout)
        if not args.http and http_options != (None, None, None):
            parser.error("serve: --host, --port and --read-timeout need --http")
        return serve(args.http, *http_options)
    if args.command == "export":
        from automium.commands.export import export_command  # noqa: PLC0415

        return export_command(args.journey, args.format, args.out)
    if args.command == "run":
        if args.planner:
            from automium.planning.command import command  # noqa: PLC0415

            return command(args)
        from automium.execution.command import main as run  # noqa: PLC0415

        return run(args)
    if args.command == "merge":
        from automium.execution.merging import main as merge  # noqa: PLC0415

        return merge(args)
    from automium.commands.demo import run_demo  # noqa: PLC0415

    return run_demo(log_level=args.log_level)


if __name__ == "__main__":
    sys.exit(main())
