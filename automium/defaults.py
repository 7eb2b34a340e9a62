"""The defaults several rooms share, each defined once: the address everything is served on
and a browser may reach, the host names a command accepts for it, and a real action's
time bound. The rooms import them from here."""

from __future__ import annotations

LOOPBACK = "127.0.0.1"
"""The one address Automium serves on (the MCP server over HTTP, the owned apps) and the
only one a run's browser reaches."""

ACCEPTED_HOSTS = frozenset({LOOPBACK, "localhost"})
"""What ``--host`` may name: the loopback address, or localhost, which binds it."""

ACTION_TIMEOUT_MS = 5_000
"""The bound of each action and assertion of a real run (``automium run``), and of an
exported test's actions; a ``wait_for`` without its own ``timeoutMs`` waits this long."""
