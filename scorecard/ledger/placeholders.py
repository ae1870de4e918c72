"""The example text `scorecard init` and `scorecard new` write, which must not be published unedited.

Kept apart from the scaffold (a command) so the check stage can recognise it without importing
the command; tests/test_scaffold.py checks that a fresh record trips every one of them.
"""

from __future__ import annotations

SOURCE = "https://example.org/paper"
LEADER = "System A"
# field path in a dimension record -> the scaffold's text there
DIMENSION = {
    ("why",): "Say why a buyer or a user cares about this dimension.",
    ("sota", "bar"): "Name the best published result, with its number.",
    ("sota", "source"): SOURCE,
    ("claim",): "our number, in words",
    ("note",): "What is and is not measured, and why.",
}
CATEGORY_SUMMARY = "what this category covers"
ARTIFACT_NOTE = "EXAMPLE artifact made by scorecard init"
HINT = "replace the example text with your own (or remove the optional field)"
