"""A stand-in page on loopback, to hold the renderer's output to a real browser before the
owned apps are served: every intent and assertion kind, an iframe, repeated names."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

_HOME = """<!doctype html><title>Stand-in shop</title>
<h1>Shop</h1>
<input type="search" aria-label="Search">
<ul>
  <li>Mug <button onclick="add()">Add to cart</button></li>
  <li>Cup <button onclick="add()">Add to cart</button></li>
</ul>
<p role="status" aria-label="Cart">0 items</p>
<label><input type="checkbox"> Gift wrap</label>
<label>Size <select><option>Small</option><option>Large</option></select></label>
<button onmouseenter="document.getElementById('tip').hidden = false">More</button>
<div role="tooltip" id="tip" hidden>Free shipping</div>
<input type="file" aria-label="Attachment">
<iframe title="Verification" src="/frame"></iframe>
<div style="height: 3000px"></div>
<button>Bottom</button>
<script>
  let count = 0;
  function add() {
    count += 1;
    document.querySelector('[role=status]').textContent = count + ' items';
  }
</script>
"""
_FRAME = """<!doctype html><title>Verification</title>
<input aria-label="One-time code">
<button onclick="if (document.querySelector('input').value === '246810')
  window.top.location.href = '/orders/7/confirmation'">Verify</button>
"""
_CONFIRMATION = """<!doctype html><title>Order 7</title><h1>Thank you for your order</h1>"""
PAGES = {"/": _HOME, "/frame": _FRAME, "/orders/7/confirmation": _CONFIRMATION}


class _Pages(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        page = PAGES.get(self.path.split("?")[0])
        body = (page or "not found").encode()
        self.send_response(200 if page else 404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        del format, args  # quiet: pytest captures nothing useful from it


@contextlib.contextmanager
def stand_in() -> Iterator[str]:
    """The stand-in's base URL on 127.0.0.1, for as long as the context lasts."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Pages)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
