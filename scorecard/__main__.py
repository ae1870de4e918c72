"""`python -m scorecard`."""

from .cli.launch import run

run()
