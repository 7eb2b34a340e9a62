"""Automium's own stdio transport, used instead of the SDK's ``stdio_server``.

Each module replaces one behaviour of the SDK's transport, for the reason given:

- :mod:`.lines` — the SDK's reader holds a whole line before looking at it (one 100 MB
  line peaked at 3.7 GiB); here a line is framed in 64 KiB reads and discarded unread past
  4 MiB, the SDK's own cap on an HTTP body.
- :mod:`.decoding` — the SDK drops every line it cannot parse without an answer, and takes
  ``{"id": 1.5}`` or ``{"id": NaN}`` for a notification; here every line that could be a
  request is answered, as JSON-RPC 2.0 says (id ``null`` when the line did not parse).
- :mod:`.pending` — the SDK runs every request it is handed and keeps each answer until it
  is written, so a client that writes without reading grew the server without bound; here
  at most 64 answers are owed at once, a reused id is refused, and stdin closing waits
  for the answers still owed before the SDK cancels them.
- :mod:`.session` — the SDK hands every read and every write to a worker thread
  (non-daemon ones, which keep the process alive after the session was cancelled); here
  the event loop does the I/O itself, stdout non-blocking, and every way a session ends
  is a clean exit.
- :mod:`.descriptors` — as the SDK does, fds 0 and 1 are claimed for the wire while the
  session runs, so a stray ``print`` cannot corrupt it.
"""

from automium.mcp_server._stdio.session import serve_session

__all__ = ["serve_session"]
