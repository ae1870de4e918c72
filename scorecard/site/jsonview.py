"""The evidence viewer's JSON: an artifact pretty-printed as lines, each value anchored by its JSON pointer and
marked where a dimension cites it; a large artifact's cited values alone."""

from __future__ import annotations

import json
import re
from urllib.parse import quote

from markupsafe import Markup, escape

from ..measure.evidence import JsonValue, PointerError, escape_token, resolve_pointer, too_deep


def pointer_anchor(pointer: str) -> str:
    """The element id (and fragment) for a JSON pointer on an evidence page: no spaces, URL-safe."""
    return "p" + quote(pointer, safe="/~-._!$'()*+,;=:@")


# An artifact larger than this (bytes, or pretty-printed lines) gets a summary page: its cited
# values, meta, size and digest, and the download link; not a page of hundreds of megabytes.
MAX_VIEW_BYTES = 1024 * 1024


MAX_VIEW_LINES = 20000


def json_or_none(raw: bytes) -> JsonValue:
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except (ValueError, RecursionError):
        return None
    return None if too_deep(data) else data  # the viewer's walk is recursive: shown as text instead


def cited_values(data: JsonValue, cited: dict[str, list[str]]) -> list[dict]:
    """Each cited pointer of a large artifact with its value (shortened) and who cites it."""
    out = []
    for pointer, by in sorted(cited.items()):
        try:
            value = json.dumps(resolve_pointer(data, pointer), ensure_ascii=False)
        except (PointerError, ValueError, RecursionError):
            continue
        out.append({"id": pointer_anchor(pointer), "pointer": pointer or "/", "cited_by": by,
                    "value": value if len(value) <= 200 else value[:199] + "…"})
    return out


FOLD_OVER = 50  # an array of more numbers than this is folded on the viewer, with its count
_ENTRY_NAMES = ("name", "fullname", "command", "benchmark", "test")  # what names an entry of a tool's list


def json_lines(data: JsonValue, cited: dict[str, list[str]]) -> list[dict]:
    """Pretty-printed JSON as lines, each value's first line carrying its pointer's anchor (and, where a dimension
    cites it, its path as a breadcrumb, and the name of the tool's entry it is in); the elements of an array of
    more than FOLD_OVER numbers between a {"fold": count} line and a {"fold_end": True} one."""
    printer = _Printer(cited)
    printer.emit(data, "", 0, None, True, "$")
    return printer.lines


_CLOSING: dict[str, object] = {"id": None, "pointer": None, "cited_by": [], "path": "", "entry": "", "say": False}


def lines_html(lines: list[dict], rel: str, base: str, dims: dict[str, dict[str, str]]) -> Markup:
    """The viewer's lines as the built-in evidence.html writes them (an element per line, with no space between):
    its loop, done here, where Jinja took a tenth of a build's render for the synthetic ledger's 60 lines a file
    (tests/test_render.py compares both on generated artifacts)."""
    out = []
    crumb_rel = escape(rel)
    for line in lines:
        if "fold" in line:
            out.append(f'<details class="fold"><summary>{escape(line["text"])}<span class="fold-count">… '
                       f'{escape("{:,}".format(line["fold"]))} numbers, folded (open to show them)</span></summary>')
            continue
        if "fold_end" in line:
            out.append("</details>")
            continue
        by = line["cited_by"]
        html = f'<div class="line{" cited" if by else ""}"' + (f' id="{escape(line["id"])}"' if line["id"] else "")
        html += f">{escape(line['text'])}"
        if line["say"]:
            links = ", ".join(f'<a href="{escape(base)}{escape(dims[i]["url"] if i in dims else "")}">{escape(i)}</a>'
                              for i in by)
            html += f'   <span class="cite">← {escape(line["pointer"])}, cited by {links}</span>'
        if by:
            entry = f" in the entry “{escape(line['entry'])}”" if line["entry"] else ""
            html += (f'<span class="crumb" aria-hidden="true">{crumb_rel} › <code>{escape(line["path"])}</code>'
                     f'{entry}</span>')
        out.append(html + "</div>")
    return Markup("".join(out))


class _Printer:
    """json_lines' state (a class, not a recursive closure: that is a cycle, never collected while the collector is
    off, which kept every cited file's lines to the end of a build)."""

    def __init__(self, cited: dict[str, list[str]]):
        self.cited = cited
        self.lines: list[dict] = []

    def emit(self, value, pointer: str, indent: int, key: str | None, last: bool, path: str,
             entry: str = "", parent_by: list[str] | None = None) -> None:
        lines = self.lines
        prefix = "  " * indent + (json.dumps(key, ensure_ascii=False) + ": " if key is not None else "")
        comma = "" if last else ","
        by = self.cited.get(pointer, [])
        anchor = {"id": pointer_anchor(pointer), "pointer": pointer or "/", "cited_by": by, "path": path if by else "",
                  "entry": entry, "say": bool(by) and by != parent_by}  # an element cited as its array is: no note
        if isinstance(value, dict) and value:
            lines.append({"text": prefix + "{", **anchor})
            items = list(value.items())
            named = next((v for k, v in items if k in _ENTRY_NAMES and isinstance(v, str)), None)
            inner = named if named is not None and path.endswith("]") else entry
            for i, (k, v) in enumerate(items):
                self.emit(v, f"{pointer}/{escape_token(k)}", indent + 1, k, i == len(items) - 1, path + _member(k),
                          inner, by)
            lines.append({"text": "  " * indent + "}" + comma, **_CLOSING})
        elif isinstance(value, list) and value:
            lines.append({"text": prefix + "[", **anchor})
            fold = len(value) > FOLD_OVER and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                                  for v in value)
            if fold:
                lines.append({"fold": len(value), "text": "  " * (indent + 1)})
            for i, v in enumerate(value):
                self.emit(v, f"{pointer}/{i}", indent + 1, None, i == len(value) - 1, f"{path}[{i}]", entry, by)
            if fold:
                lines.append({"fold_end": True})
            lines.append({"text": "  " * indent + "]" + comma, **_CLOSING})
        else:
            lines.append({"text": prefix + json.dumps(value, ensure_ascii=False) + comma, **anchor})


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _member(key: str) -> str:
    """A member's step in a JSONPath: .name, or ['any key'] (RFC 9535 normalized form)."""
    if _NAME.fullmatch(key):
        return f".{key}"
    inner = json.dumps(key, ensure_ascii=False)[1:-1].replace('\\"', '"').replace("'", "\\'")
    return f"['{inner}']"
