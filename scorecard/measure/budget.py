"""One budget for every path: query of a run (validate, build, a serve rebuild), so that many hostile records cannot
each spend a query's whole budget (41 records took 73 s, about 330 would reach a 10-minute CI timeout). jsonquery.py
spends it; the pipeline starts each run with a fresh one. A module of its own, so that starting a run does not load
the query engine on the hook's path.
"""

from __future__ import annotations

RUN_TIME_BUDGET = 20.0  # seconds, every query of the run together
RUN_WORK_BUDGET = 20_000_000  # units of work (as jsonquery.MAX_WORK counts them), every query of the run together

spent = {"seconds": 0.0, "work": 0}  # this run's (one process: the check stage runs in the main one)


def reset_run() -> None:
    """A new run: its queries share a fresh budget."""
    spent.update(seconds=0.0, work=0)


def run_spent() -> tuple[float, int]:
    """(seconds, units of work) this run's queries have spent so far (for the bench and docs/security.md)."""
    return float(spent["seconds"]), int(spent["work"])
