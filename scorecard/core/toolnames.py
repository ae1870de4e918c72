"""The benchmark tools whose output scorecard reads in their own words (`format:`): their names, in one place.

How each is read lives in measure/tools; this list is here so that the command line can offer the names without
loading the readers.
"""

from __future__ import annotations

TOOL_FORMATS = ("hyperfine", "pytest-benchmark", "pyperf", "google-benchmark", "asv", "serving")
