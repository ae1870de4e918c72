"""Independent tasks run in forked worker processes on large ledgers; in this process on small ones.

Load parses runs of YAML files this way, and render cuts the site into tasks (runs of categories,
each with its section of the index; runs of cited files), each returning its files. The workers are forked, so they
inherit what the parent holds (the resolved ledger, the compiled templates) without pickling it.
Before the fork the objects that exist are frozen out of the garbage collector's sight
(gc.freeze), so neither a collection in a worker nor one in this process touches, and so copies,
the pages the processes share. The output is the same either way, byte for byte: only which
process does which task changes.

Lazy import: multiprocessing (and threading), when a job is large enough for workers (5 ms of a small ledger's
validate).
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar, cast

T = TypeVar("T")
R = TypeVar("R")

# Below this many dimensions a worker process costs more than it saves.
PARALLEL_MIN_DIMENSIONS = 600
MAX_WORKERS = 4
# Render workers are replaced by fresh forks after this many tasks: the pages of the parent a worker
# copied (reading an object writes its reference count) are given back. A 20,000-dimension cold build
# (all processes together, PSS): never 948 MB; after 12 tasks 551 MiB, after 4 449, after 3 425 (the
# index's sections spooled and the dimensions' map made before the fork). A replacement costs a fork
# and no wait (the process pool wakes on a worker's exit); 2,000 dimensions built in the same rounds
# after 3 and after 12 tasks took 4.6-7.2 s and 4.7-7.4 s. The parse pool does not recycle: its parent
# is still growing, and recycling after 6 tasks made a 20,000-dimension validate take 19.5-21.9 s
# instead of 9.6-12.1 s.
WORKER_TASKS = 3
# At most this many tasks per worker are handed out and not yet taken by the consumer (run_tasks).
AHEAD = 2


class _Job:
    """What the forked workers run: set before the fork, inherited, never pickled."""

    current: Callable | None = None


def _run(item: tuple[int, object]) -> tuple[int, object]:
    index, task = item
    assert _Job.current is not None, "set before the workers fork"
    return index, _Job.current(task)


def _start_worker() -> None:
    # The launcher turns the collector off for a short command; a worker's own garbage is
    # collected as usual (what it inherited is frozen, so collecting never copies it).
    gc.enable()


def workers_for(size: int) -> int:
    """How many worker processes a job over `size` dimensions gets (0: run here)."""
    workers = min(os.cpu_count() or 1, MAX_WORKERS)
    if workers < 2 or size < PARALLEL_MIN_DIMENSIONS:
        return 0
    import multiprocessing

    return workers if "fork" in multiprocessing.get_all_start_methods() else 0


def run_tasks(func: Callable[[T], R], tasks: Sequence[T], size: int,
              recycle: int | None = None) -> Iterator[tuple[int, R]]:
    """(index, func(task)) for every task, in the order they finish (in task order when run here).

    recycle: replace a worker by a fresh fork after that many tasks (see WORKER_TASKS).
    """
    workers = workers_for(size)
    if not workers:
        for i, task in enumerate(tasks):
            yield i, func(task)
        return
    _Job.current = func
    import multiprocessing
    import threading

    # Tasks handed out whose results this process has not taken yet: a consumer slower than the workers (the writer
    # of a 20,000-dimension site) held every finished task's files until it came to them, and its peak with them.
    slots, stop = threading.Semaphore(AHEAD * workers), threading.Event()

    def feed() -> Iterator[tuple[int, T]]:  # iterated by the pool's task thread
        for item in enumerate(tasks):
            slots.acquire()
            if stop.is_set():
                return
            yield item

    gc.freeze()
    try:
        with multiprocessing.get_context("fork").Pool(workers, initializer=_start_worker,
                                                      maxtasksperchild=recycle) as pool:
            try:
                for result in pool.imap_unordered(_run, feed()):
                    yield cast(tuple[int, R], result)
                    slots.release()  # the consumer has done with it: one more task may go
            finally:  # a consumer that stopped early: the task thread, if it waits for a slot, ends (or the pool's
                stop.set()  # exit would wait for it forever)
                for _ in range(len(tasks) + 1):
                    slots.release()
    finally:
        _Job.current = None
        gc.unfreeze()
