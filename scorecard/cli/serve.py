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
import urllib.parse
from pathlib import Path
from collections.abc import Callable

from . import pipeline, report
from ..core.findings import UserError
from ..core.git import GitError, run
from ..ledger.load import MemoryParseCache
from .pipeline import BuildState
from .watching import WATCHED, watch
from .sitefiles import LOOPBACK, _request_path, _site_file, content_type, host_name

STATUS_PATH = "/__scorecard__/status"
RELOAD_SCRIPT = (b"""<script>(function(){var g=null;setInterval(function(){fetch('""" + STATUS_PATH.encode()
                 + b"""').then(function(r){return r.json()}).then(function(s){"""
                 b"""if(g!==null&&s.generation!==g){location.reload()}g=s.generation})
.catch(function(){})},500)}())</script>""")


class Rebuilder:
    """Keeps the site current: snapshots the inputs, rebuilds on change, remembers the findings."""

    def __init__(self, root: Path, out: Path, echo: Callable[[str], None] = print, history: bool = False,
                 warm: bool = False):
        self.root, self.out, self.echo = root, out, echo
        self.history = history
        self.warm = warm  # rendered categories from the warm cache (parsed files stay in self.cache)
        self.git_markers: list[str] | None = None  # with history: files a commit or checkout rewrites
        self.noted: set[str] = set()
        self.cache = MemoryParseCache()
        self.generation = 0
        self.broken_text: str | None = None
        self.cited: list[str] = []
        self.snapshot: dict[str, tuple[int, int]] = {}
        self.lock = threading.Lock()
        self.state: BuildState | None = None  # the last good build's, for the fast path
        self.memory: dict[str, bytes] = {}  # pages newer than the files on disk
        self.building = False

    def inputs(self) -> dict[str, tuple[int, int]]:
        """(mtime, size) of every file a build reads."""
        found: dict[str, tuple[int, int]] = {}
        for path in ([str(self.root / name) for name in WATCHED] + [str(self.root / rel) for rel in self.cited]
                     + self.git_marker_paths()):
            try:
                st = os.stat(path)
            except OSError:
                continue
            if os.path.isdir(path):
                self._walk(path, found)
            else:
                found[path] = (st.st_mtime_ns, st.st_size)
        return found

    def git_marker_paths(self) -> list[str]:
        """With history, git's HEAD and its reflog: a commit changes the history without touching the ledger."""
        if not self.history:
            return []
        if self.git_markers is None:
            try:
                git_dir = Path(run(["rev-parse", "--absolute-git-dir"], self.root).decode().strip())
                self.git_markers = [str(git_dir / "HEAD"), str(git_dir / "logs" / "HEAD")]
            except GitError:
                self.git_markers = []
        return self.git_markers

    def _walk(self, folder: str, found: dict) -> None:
        """Every file under folder, by a stack (a folder nested 1,100 deep ended serve in exit 3 by recursion)."""
        stack = [folder]
        while stack:
            try:
                entries = list(os.scandir(stack.pop()))
            except OSError:
                continue
            for entry in entries:
                try:
                    if entry.is_dir(follow_symlinks=False):
                        stack.append(entry.path)
                    else:
                        st = entry.stat()
                        found[entry.path] = (st.st_mtime_ns, st.st_size)
                except OSError:
                    continue

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
        self.building = True
        try:
            outcome = pipeline.build(self.root, self.out, cache=self.cache, history=self.history,
                                     warm=self.warm)
        finally:
            self.building = False
        took = time.perf_counter() - start
        checked = outcome.checked
        for note in outcome.notes:
            if note not in self.noted:  # once, not on every rebuild
                self.noted.add(note)
                self.echo(f"scorecard: {note}")
        with self.lock:
            if outcome.refused:
                self.state = None
                self.memory = {}
                self.broken_text = report.text(checked.findings, checked.dimension_count)
                self.echo(self.broken_text + "the ledger has errors: still serving the last good site")
            else:
                self.broken_text = None
                self.state = outcome.state
                self.memory = {}
                if outcome.cited_files != self.cited:
                    self.cited = outcome.cited_files
                    for rel in self.cited:  # newly watched files count as seen at this build
                        if str(self.root / rel) not in self.snapshot:
                            self._stat(self.root / rel, self.snapshot)
                self.echo(f"rebuilt {outcome.pages} files for {checked.dimension_count} dimensions in {took:.2f} s"
                          + outcome.reuse_note())
            self.generation += 1
        if len(self.cache) > 4 * (checked.dimension_count + 100):
            self.cache.clear()  # old versions of edited files pile up; start afresh
        return took

    def poll_once(self) -> bool:
        """Rebuild if any input changed since the last build (first the fast path, when it applies)."""
        current = self.inputs()
        if current == self.snapshot:
            return False
        changed = {p for p in current.keys() | self.snapshot.keys() if current.get(p) != self.snapshot.get(p)}
        try:
            self.refresh(changed, current)
        except Exception as exc:  # noqa: BLE001 - the full rebuild below is the fallback
            self.echo(f"fast refresh skipped ({type(exc).__name__}: {exc}); rebuilding in full")
        self.rebuild()
        return True

    def refresh(self, changed: set[str], current: dict) -> bool:
        """Serve changed dimensions' category pages from memory at once, if only dimension files changed."""
        claims = str(self.root / "claims") + os.sep
        if self.state is None or not all(
                p.startswith(claims) and p.endswith(".yaml") and not p.endswith("_category.yaml")
                and p in current and p in self.snapshot for p in changed):
            return False
        start = time.perf_counter()
        pages = pipeline.refresh(self.state, [Path(p).relative_to(self.root).as_posix() for p in sorted(changed)],
                                 self.cache)
        if pages is None:
            return False
        with self.lock:
            self.memory.update(pages)
            self.generation += 1
        self.echo(f"updated {', '.join(sorted(pages))} in {time.perf_counter() - start:.3f} s; full rebuild follows")
        return True

    def watch(self, stop: threading.Event, interval: float = 0.1) -> None:
        """Rebuild on every change until stop is set (watching.py: notifications, else polling)."""
        watch(self, stop, interval)

class _Handler(http.server.BaseHTTPRequestHandler):
    """GET for the site: pages of the last good build (or fresher ones in memory), and the status poll."""

    rebuilder: Rebuilder  # set by _handler
    timeout = 15  # seconds an idle connection may hold its thread
    protocol_version = "HTTP/1.0"

    def log_message(self, format, *args):  # noqa: A002 - the stdlib's signature
        pass

    def do_GET(self):
        if not self._host_allowed():  # a DNS-rebinding page names its own host: it reads nothing
            return self.send_error(403, "host not allowed (scorecard serve --allow-host NAME)")
        if self.path == STATUS_PATH:
            with self.rebuilder.lock:
                body = json.dumps({"generation": self.rebuilder.generation, "ok": self.rebuilder.broken_text is None,
                                   "building": self.rebuilder.building}).encode()
            return self._send(body, "application/json")
        rel = _request_path(self.path)
        if rel is None:
            return self.send_error(400, "bad path")
        with self.rebuilder.lock:
            fresh = self.rebuilder.memory.get(rel)
        if fresh is not None:
            return self._send(self._decorate(fresh), "text/html; charset=utf-8")
        return self._file(rel)

    def _host_allowed(self) -> bool:
        host = host_name(self.headers.get("Host") or "")
        return host is not None and host in self.server.allowed_hosts  # type: ignore[attr-defined]

    def _file(self, rel: str) -> None:
        """A file of the last good build: HTML with the reload script (and any error banner); before the first
        good build, a page of the findings."""
        body = _site_file(self.rebuilder.out, rel)
        with self.rebuilder.lock:
            unbuilt = self.rebuilder.state is None and self.rebuilder.broken_text is not None
        if body is None and unbuilt and (rel.endswith(".html") or "." not in rel.rsplit("/", 1)[-1]):
            return self._send(self._decorate(FINDINGS_PAGE), "text/html; charset=utf-8")
        if body is None:
            if not rel.endswith("index.html") and _site_file(self.rebuilder.out, rel + "/index.html") is not None:
                self.send_response(301)  # a folder without its slash: relative links need it
                self.send_header("Location", "/" + urllib.parse.quote(rel) + "/")
                self.send_header("Content-Length", "0")
                return self.end_headers()
            return self.send_error(404, "not in the site")
        ctype = content_type(rel)
        return self._send(self._decorate(body) if ctype.startswith("text/html") else body, ctype)

    def do_HEAD(self):
        self.send_error(405, "GET only")

    def _decorate(self, page: bytes) -> bytes:
        with self.rebuilder.lock:
            broken = self.rebuilder.broken_text
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
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)


def _handler(rebuilder: Rebuilder) -> type[_Handler]:
    return type("Handler", (_Handler,), {"rebuilder": rebuilder})


FINDINGS_PAGE = (b'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>scorecard: the ledger has errors'
                 b'</title><meta name="viewport" content="width=device-width, initial-scale=1"></head><body><main>'
                 b"<h1>No good build yet</h1><p>The ledger has errors, listed above; the site appears here once they "
                 b"are fixed.</p></main></body></html>")
MAX_CONNECTIONS = 64  # handled at once; more wait in the listen queue (each idle one is dropped after its timeout)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    """A threaded HTTP server whose threads do not keep the process alive, that handles at most MAX_CONNECTIONS at
    once and answers only requests naming an allowed host."""

    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 256  # the stdlib's 5 drops connections when a page's assets load at once

    def __init__(self, address, handler, allowed_hosts: frozenset[str] = frozenset()):
        super().__init__(address, handler)
        self.allowed_hosts = LOOPBACK | {h.lower() for h in allowed_hosts}
        self.slots = threading.BoundedSemaphore(MAX_CONNECTIONS)

    def process_request(self, request, client_address) -> None:
        self.slots.acquire()  # the accept loop waits here: more clients queue, no thread is spawned for them
        try:
            super().process_request(request, client_address)
        except BaseException:
            self.slots.release()
            raise

    def process_request_thread(self, request, client_address) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.slots.release()

    def handle_error(self, request, client_address) -> None:
        pass  # a client that hangs up or times out is not worth a traceback


def serve(root: Path, out: Path, host: str, port: int | None, echo: Callable[[str], None] = print,
          history: bool = False, warm: bool = True, allowed_hosts: frozenset[str] = frozenset()) -> None:
    """Build, then serve until interrupted. port None: 8000, or a free one if 8000 is taken."""
    rebuilder = Rebuilder(root, out, echo, history, warm)
    rebuilder.rebuild()
    if not out.is_dir():
        out.mkdir(parents=True)
    hosts = allowed_hosts | ({host.lower()} if host not in ("0.0.0.0", "::") else frozenset())
    try:
        httpd = Server((host, 8000 if port is None else port), _handler(rebuilder), hosts)
    except OSError:
        if port is not None:
            raise
        httpd = Server((host, 0), _handler(rebuilder), hosts)
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


def serve_folder(ledger_root: Path, out: str) -> Path:
    """serve's --out: a folder outside the ledger, reached through no link (serve never builds into the ledger,
    where a committed site/ or a link named site would be served as the preview)."""
    given = Path(out).absolute()
    resolved = given.resolve()
    if resolved != given:
        raise UserError(f"--out {out}: the path goes through a link; give the folder itself")
    if resolved == ledger_root or ledger_root in resolved.parents:
        raise UserError(f"--out {out} is inside the ledger: serve builds into a folder of its own (leave "
                               "--out out, and it uses a temporary one)")
    return resolved
