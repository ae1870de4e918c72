"""How `scorecard serve` learns that the ledger changed: the OS's file notifications, or polling.

Notifications come through watchfiles (the Rust `notify` library: inotify on Linux, FSEvents on
macOS, ReadDirectoryChangesW on Windows), so an idle server does no work at all. They only wake
the server: what changed is still decided by comparing every input's (mtime, size) with the
last build's snapshot (Rebuilder.poll_once), so a notification too many costs one comparison and
a notification missed during a build is caught by the next one. Where notifications are not
available (no watchfiles, a file system without them, a watch limit reached), or where
SCORECARD_POLL=1 asks for it, the inputs are polled every 0.1 s as before.

Lazy import: watchfiles, when serve starts watching (it is optional: polling stands in).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Protocol


class Rebuilder(Protocol):
    """What the watcher needs of serve's rebuilder (a protocol, so that this module does not import serve)."""

    root: Path
    out: Path
    cited: list[str]
    snapshot: dict[str, tuple[int, int]]
    echo: Callable[[str], None]

    def inputs(self) -> dict[str, tuple[int, int]]: ...

    def poll_once(self) -> bool: ...

    def git_marker_paths(self) -> list[str]: ...

WATCHED = ("scorecard.yaml", "claims", "evidence", "templates")  # under the root; and every cited file
STEP_MS = 10  # a batch of changes is handed over once no new one came for this long...
DEBOUNCE_MS = 200  # ...or once changes have kept coming for this long
SETTLE_MS = 1000  # with no change for this long, the watcher reports in (the first time, inputs are checked)


def watch(rebuilder: Rebuilder, stop: threading.Event, interval: float = 0.1) -> None:
    """Rebuild on every change until stop is set."""
    if os.environ.get("SCORECARD_POLL", "") not in ("", "0"):
        poll(rebuilder, stop, interval)
        return
    try:
        notified(rebuilder, stop)
    except (ImportError, OSError, RuntimeError) as exc:  # no watchfiles, no notifications here, a watch limit
        rebuilder.echo(f"file notifications unavailable ({type(exc).__name__}: {exc}); "
                       f"polling for changes every {interval} s instead")
        poll(rebuilder, stop, interval)


def notified(rebuilder: Rebuilder, stop: threading.Event) -> None:
    """Wait for the OS to report a change under the ledger root, then check and rebuild."""
    from watchfiles import watch as notifications

    wanted = Inputs(rebuilder)
    settled = False
    for changes in notifications(rebuilder.root, watch_filter=wanted, debounce=DEBOUNCE_MS, step=STEP_MS,
                                 stop_event=stop, raise_interrupt=False, ignore_permission_denied=True,
                                 rust_timeout=SETTLE_MS, yield_on_timeout=True):
        if changes or not settled:
            # The first quiet spell: the watch is in place, so a change saved while it was being set up
            # (after the build's snapshot, before any notification could come) is looked for once.
            check(rebuilder)
        settled = True


def poll(rebuilder: Rebuilder, stop: threading.Event, interval: float) -> None:
    """Check the inputs every interval seconds until stop is set."""
    while not stop.wait(interval):
        check(rebuilder)


def check(rebuilder: Rebuilder) -> None:
    """Rebuild if an input changed; a failure is reported once and serving goes on."""
    try:
        rebuilder.poll_once()
    except Exception as exc:  # noqa: BLE001 - keep serving whatever went wrong
        rebuilder.snapshot = rebuilder.inputs()  # report this state once, not on every change
        rebuilder.echo(f"rebuild failed: {type(exc).__name__}: {exc}")


class Inputs:
    """Which notified paths can change the site: the watched folders, scorecard.yaml, cited files, git's HEAD.

    Never the output folder or the temporary folders a build writes (a build would wake itself).
    """

    def __init__(self, rebuilder: Rebuilder):
        root = str(rebuilder.root)
        self.rebuilder = rebuilder
        self.out = str(rebuilder.out)
        self.folders = tuple(os.path.join(root, name) + os.sep for name in WATCHED)
        self.files = {os.path.join(root, name) for name in WATCHED}
        self.cited_from: list[str] | None = None  # the rebuilder's list the set below was made from
        self.cited: set[str] = set()

    def __call__(self, change: object, path: str) -> bool:
        if path == self.out or path.startswith(self.out + os.sep):
            return False
        if path in self.files or path.startswith(self.folders):
            return True
        rb = self.rebuilder
        if rb.cited is not self.cited_from:  # a build replaced the list of cited files
            self.cited_from, self.cited = rb.cited, {str(rb.root / rel) for rel in rb.cited}
        return path in self.cited or path in rb.git_marker_paths()
