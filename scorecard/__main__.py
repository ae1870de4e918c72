"""`python -m scorecard`."""

from .cli import main

main(prog_name="scorecard")
