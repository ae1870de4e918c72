"""The `scorecard` process: start-up and exit tuned for a short-lived command (the pre-commit hook above all).

The command line itself is commands.py; this module only runs it as a program:
- the cyclic garbage collector is off for the whole command: it would walk every object imported,
  parsed and resolved again and again, and almost none of them is garbage. Forked render workers
  collect their own garbage (core/parallel.py), and `serve`, which runs for hours, turns it back on;
- pydantic's plugin discovery, a scan of every installed package's metadata, is switched off
  with pydantic's documented PYDANTIC_DISABLE_PLUGINS unless the user set it;
- a warm validate or build puts the patterns its imports compile, kept by the last one, in re's cache first;
- once the command has finished and its output is flushed, the process ends at once with
  os._exit: tearing down a few hundred modules and every object one by one is work nobody sees.

Library users and tests call cli.main; nothing here changes what a command does or prints.

Lazy import: the commands, once the garbage collector is off (their import is most of a short command's time).
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys


def run() -> None:
    """The console script's entry point."""
    gc.disable()
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    from ..core import regexstore

    regexstore.seed(sys.argv[1:])  # a warm run's imports find their patterns compiled (core/regexstore.py)
    from .commands import main

    try:
        main(prog_name="scorecard")
    except SystemExit as exc:
        _exit(exc.code)
    _exit(0)


def _exit(code: object) -> None:
    """Flush what the command printed, then end the process now, with click's exit status."""
    if code is None:
        status = 0
    elif isinstance(code, int):
        status = code
    else:  # sys.exit("message"): printed to stderr, status 1, as Python does
        print(code, file=sys.stderr)
        status = 1
    for stream in (sys.stdout, sys.stderr):
        # a closed pipe (`scorecard validate | head`): nothing more to deliver
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(status)
