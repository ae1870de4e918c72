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


def example_fields(dim) -> list[tuple[tuple, str]]:
    """(where, its name) of every field of a dimension record that still holds the scaffold's example text: such a
    record is SC604, and history, the changes page and the feed leave it out until it is edited (issue 43)."""
    left: list[tuple[tuple, str]] = []
    for path, text in DIMENSION.items():
        value = getattr(dim, path[0]) if len(path) == 1 else getattr(getattr(dim, path[0]), path[1])
        if isinstance(value, str) and " ".join(value.split()) == text:
            left.append((path, ".".join(path)))
    left += [(("leaders", i), f"leaders[{i}] ({LEADER})") for i, leader in enumerate(dim.leaders) if leader == LEADER]
    left += [(("trace", i), f"trace[{i}] ({SOURCE})") for i, entry in enumerate(dim.trace)
             if (entry if isinstance(entry, str) else entry.target) == SOURCE]
    return left
