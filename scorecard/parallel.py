"""Render tasks run in forked worker processes on large ledgers; in this process on small ones.

The site is cut into independent tasks (the index, runs of categories, runs of cited files);
each returns its files. The workers are forked, so they inherit the resolved ledger and the
compiled templates without pickling them; before the fork the objects that exist are frozen
out of the garbage collector's sight (gc.freeze), so neither a collection in a worker nor one
in this process touches, and so copies, the pages the processes share. The output is the same
either way, byte for byte: only who renders which file changes.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

# Below this many dimensions a worker process costs more than it saves.
PARALLEL_MIN_DIMENSIONS = 600
MAX_WORKERS = 4
# A worker is replaced by a fresh fork after this many tasks: the pages of the parent it copied
# (reading an object writes its reference count) are given back. Measured on a 20,000-dimension
# build: all processes together peak at 715-754 MB against 920-946 MB, in the same time within noise.
WORKER_TASKS = 6


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
    import multiprocessing

    workers = min(os.cpu_count() or 1, MAX_WORKERS)
    if workers < 2 or size < PARALLEL_MIN_DIMENSIONS or "fork" not in multiprocessing.get_all_start_methods():
        return 0
    return workers


def run_tasks(func: Callable[[T], R], tasks: Sequence[T], size: int) -> Iterator[tuple[int, R]]:
    """(index, func(task)) for every task, in the order they finish (in task order when run here)."""
    workers = workers_for(size)
    if not workers:
        for i, task in enumerate(tasks):
            yield i, func(task)
        return
    import multiprocessing

    _Job.current = func
    gc.freeze()
    try:
        with multiprocessing.get_context("fork").Pool(workers, initializer=_start_worker,
                                                      maxtasksperchild=WORKER_TASKS) as pool:
            yield from pool.imap_unordered(_run, enumerate(tasks))
    finally:
        _Job.current = None
        gc.unfreeze()
