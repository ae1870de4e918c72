"""What `scorecard diff` prints: plain text for a terminal, Markdown for a pull request, and a stable JSON shape."""

from __future__ import annotations

import json
from dataclasses import field

from ..core.structs import slotted
from .report import MD_LIMIT, md_code

CRAFTED = "crafted tree"


@slotted
class Change:
    """What changed for one dimension."""

    id: str
    file: str
    kind: str  # added, removed, changed
    lines: list[str] = field(default_factory=list)


def as_text(old: str, new: str, changes: list[Change]) -> str:
    """Plain text for a terminal."""
    crafted = [c for c in changes if c.kind == CRAFTED]
    changes = [c for c in changes if c.kind != CRAFTED]
    out = [line for c in crafted for line in c.lines]
    if not changes:
        return "\n".join([*out, f"no dimension changed between {old} and {new}"]) + "\n"
    out.append(f"{len(changes)} dimension{'s' if len(changes) != 1 else ''} changed between {old} and {new}:")
    for c in changes:
        out.append(f"{c.kind} {c.id} ({c.file})")
        out += [f"    {line}" for line in c.lines]
    return "\n".join(out) + "\n"


def as_markdown(old: str, new: str, changes: list[Change], limit: int = MD_LIMIT) -> str:
    """Markdown ready to paste as a pull-request comment: every text from the ledger (ids, file names, titles,
    claims, values, messages) sits in a code span, where it cannot open a link, an image, raw HTML, a heading
    or a mention."""
    crafted = [f"- **crafted tree** {md_code(line)}" for c in changes if c.kind == CRAFTED for line in c.lines]
    changes = [c for c in changes if c.kind != CRAFTED]
    top = [*crafted, ""] if crafted else []
    if not changes:
        return "\n".join([*top, f"**scorecard:** no dimension changed between {md_code(old)} and {md_code(new)}."]) \
            + "\n"
    out = [*top, f"### scorecard: {len(changes)} dimension{'s' if len(changes) != 1 else ''} changed", "",
           f"Between {md_code(old)} and {md_code(new)}.", ""]
    size = sum(len(line) + 1 for line in out)
    for i, c in enumerate(changes):
        block = [f"- **{c.kind}** {md_code(c.id)} ({md_code(c.file)})", *(f"  - {md_code(line)}" for line in c.lines)]
        grown = sum(len(line) + 1 for line in block)
        if size + grown > min(limit, MD_LIMIT) - 200:  # over the limit the summary (1 MiB) or a comment
            # (65,536 characters) is dropped whole: cut, and say how many more
            out.append(f"- … and {len(changes) - i} more changed dimension{'s' if len(changes) - i != 1 else ''}: "
                       "run `scorecard diff` for all of them")
            break
        out += block
        size += grown
    return "\n".join(out) + "\n"


def as_json(old: str, new: str, changes: list[Change]) -> str:
    """A stable JSON shape: {version, from, to, changes: [{id, file, kind, lines}]}."""
    return json.dumps({"version": 1, "from": old, "to": new,
                       "changes": [{"id": c.id, "file": c.file, "kind": c.kind, "lines": c.lines} for c in changes]},
                      indent=2, ensure_ascii=False) + "\n"
