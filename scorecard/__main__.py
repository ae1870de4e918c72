"""`python -m scorecard`."""

from .launch import run

run()
