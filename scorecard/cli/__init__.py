"""The commands: each parses its options, calls the pipeline or one function, and sets the exit status.

pipeline is the one orchestrator (load -> check -> resolve -> render -> write); commands is the
click command line (group the shared options, authoring the commands that write the ledger's
files) and launch the process around it; report prints findings; review, diff,
scaffold and serve (with watching) are the commands that are more than the pipeline.
May import: every layer. Nothing imports it but __main__ and the `scorecard` script.
"""
