"""The formats validate prints its findings in (report.py writes them): a module of its own, so that the command
line's options name them without loading the report's code (`scorecard --help` stays as quick as click)."""

FORMATS = ("text", "json", "github", "sarif", "markdown")
