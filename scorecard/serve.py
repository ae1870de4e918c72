"""`scorecard serve`: build, serve the site on loopback, rebuild when the ledger changes.

While the ledger is broken the last good site stays up, and every HTML page served gets a
banner with the findings. Served pages (never the built files) also get a few lines of
script that reload the page after a rebuild.
"""

from __future__ import annotations

import html
import http.server
import json
import os
import socketserver
import threading
import time
from pathlib import Path
from typing import Callable

from . import pipeline, report

WATCHED = ("scorecard.yaml", "claims", "evidence", "templates")
STATUS_PATH = "/__scorecard__/status"
RELOAD_SCRIPT = b"""<script>(function(){var g=null;setInterval(function(){fetch('""" + STATUS_PATH.encode() + \
    b"""').then(function(r){return r.json()}).then(function(s){if(g!==null&&s.generation!==g){location.reload()}g=s.generation})
.catch(function(){})},500)}())</script>"""


class Rebuilder:
    """Keeps the site current: snapshots the inputs, rebuilds on change, remembers the findings."""

    def __init__(self, root: Path, out: Path, echo: Callable[[str], None] = print):
        self.root, self.out, self.echo = root, out, echo
        self.cache: dict = {}
        self.generation = 0
        self.broken_text: str | None = None
        self.cited: list[str] = []
        self.snapshot: dict[str, tuple[int, int]] = {}
        self.lock = threading.Lock()

    def inputs(self) -> dict[str, tuple[int, int]]:
        """(mtime, size) of every file a build reads."""
        found: dict[str, tuple[int, int]] = {}
        paths = [self.root / name for name in WATCHED] + [self.root / rel for rel in self.cited]
        for path in paths:
            if path.is_dir():
                for folder, dirs, files in os.walk(path):
                    dirs.sort()
                    for name in files:
                        self._stat(Path(folder, name), found)
            else:
                self._stat(path, found)
        return found

    def _stat(self, path: Path, found: dict) -> None:
        try:
            st = path.stat()
        except OSError:
            return
        found[str(path)] = (st.st_mtime_ns, st.st_size)

    def rebuild(self) -> float:
        """One build; returns its duration in seconds."""
        start = time.perf_counter()
        self.snapshot = self.inputs()
        outcome = pipeline.build(self.root, self.out, cache=self.cache)
        took = time.perf_counter() - start
        checked = outcome.checked
        with self.lock:
            if outcome.refused:
                self.broken_text = report.text(checked.findings, checked.dimension_count)
                self.echo(self.broken_text + "the ledger has errors: still serving the last good site")
            else:
                self.broken_text = None
                if outcome.cited_files != self.cited:
                    self.cited = outcome.cited_files
                    for rel in self.cited:  # newly watched files count as seen at this build
                        if str(self.root / rel) not in self.snapshot:
                            self._stat(self.root / rel, self.snapshot)
                self.echo(f"rebuilt {outcome.pages} files for {checked.dimension_count} dimensions in {took:.2f} s")
            self.generation += 1
        if len(self.cache) > 4 * (checked.dimension_count + 100):
            self.cache.clear()  # old versions of edited files pile up; start afresh
        return took

    def poll_once(self) -> bool:
        """Rebuild if any input changed since the last build."""
        if self.inputs() != self.snapshot:
            self.rebuild()
            return True
        return False

    def watch(self, stop: threading.Event, interval: float = 0.1) -> None:
        """Poll until stop is set."""
        while not stop.wait(interval):
            try:
                self.poll_once()
            except Exception as exc:  # noqa: BLE001 - keep serving whatever went wrong
                self.echo(f"rebuild failed: {type(exc).__name__}: {exc}")


def _handler(rebuilder: Rebuilder):
    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(rebuilder.out), **kwargs)

        def log_message(self, format, *args):  # noqa: A002 - the stdlib's signature
            pass

        def do_GET(self):
            if self.path == STATUS_PATH:
                with rebuilder.lock:
                    body = json.dumps({"generation": rebuilder.generation, "ok": rebuilder.broken_text is None}).encode()
                return self._send(body, "application/json")
            path = Path(self.translate_path(self.path))
            if path.is_dir():
                path = path / "index.html"
            if path.suffix == ".html" and path.is_file():
                return self._send(self._decorate(path.read_bytes()), "text/html; charset=utf-8")
            return super().do_GET()

        def _decorate(self, page: bytes) -> bytes:
            with rebuilder.lock:
                broken = rebuilder.broken_text
            extra = RELOAD_SCRIPT
            if broken:
                banner = ('<div role="alert" style="position:sticky;top:0;z-index:9;background:#ffebe9;color:#82071e;'
                          'border:2px solid #82071e;padding:0.5rem 1rem;white-space:pre-wrap;font:14px/1.4 monospace">'
                          "<strong>The ledger has errors; this is the last good build.</strong>\n"
                          + html.escape(broken) + "</div>")
                extra = banner.encode() + extra
            return page.replace(b"<body>", b"<body>" + extra, 1)

        def _send(self, body: bytes, ctype: str) -> None:
            self.send_response(200)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

    return Handler


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    """A threaded HTTP server whose threads do not keep the process alive."""

    daemon_threads = True
    allow_reuse_address = True


def serve(root: Path, out: Path, host: str, port: int | None, echo: Callable[[str], None] = print) -> None:
    """Build, then serve until interrupted. port None: 8000, or a free one if 8000 is taken."""
    rebuilder = Rebuilder(root, out, echo)
    rebuilder.rebuild()
    if not out.is_dir():
        out.mkdir(parents=True)
    try:
        httpd = Server((host, 8000 if port is None else port), _handler(rebuilder))
    except OSError:
        if port is not None:
            raise
        httpd = Server((host, 0), _handler(rebuilder))
    stop = threading.Event()
    watcher = threading.Thread(target=rebuilder.watch, args=(stop,), daemon=True)
    watcher.start()
    echo(f"serving {out} at http://{host}:{httpd.server_address[1]}/ (Ctrl-C to stop)")
    try:
        httpd.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        echo("stopped")
    finally:
        stop.set()
        httpd.server_close()
