"""What `scorecard serve` answers with: the site path a request names, the bytes of a regular file inside the
site (never through a link), the Content-Type by suffix, and the host a request names."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from urllib.parse import unquote

from ..core.paths import name_suffix
from ..site.views import RAW_TYPES


# What the site holds, by suffix: the files it writes itself, and the ledger's files it copies raw (views.RAW_TYPES);
# anything else is served as bytes to save.
TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".js": "text/javascript; charset=utf-8", ".svg": "image/svg+xml", ".xml": "application/atom+xml",
         **RAW_TYPES}
# Files the site writes itself may be active (its pages, styles, scripts, badges); a ledger's own
# files are only under _files/, where nothing but the allowlisted types is ever copied raw.
MAX_SERVED = 256 * 1024 * 1024


def content_type(rel: str) -> str:
    """The Content-Type for a site path (by suffix, case-insensitive); unknown types download."""
    suffix = name_suffix(rel)
    if rel.startswith("_files/") and suffix in (".svg", ".xml", ".css", ".js"):
        return "application/octet-stream"
    return TYPES.get(suffix, "application/octet-stream")


def _request_path(raw: str) -> str | None:
    """The site path a request names ('' and folders mean their index.html); None if it is malformed."""
    try:
        path = unquote(raw.split("?", 1)[0].split("#", 1)[0], errors="strict")
    except UnicodeDecodeError:
        return None
    if "\\" in path or any(ord(c) < 32 or ord(c) == 127 for c in path):  # NUL and other controls included
        return None
    parts = [p for p in path.split("/") if p not in ("", ".")]
    if ".." in parts:
        return None
    rel = "/".join(parts)
    if not rel:
        return "index.html"
    return rel + "/index.html" if path.endswith("/") else rel


def _site_file(out: Path, rel: str) -> bytes | None:
    """The bytes of a regular file inside the site, never through a symlink; None for anything else."""
    path = out
    for part in rel.split("/"):
        path = path / part
        try:
            info = os.lstat(path)
        except OSError:
            return None
        if stat.S_ISLNK(info.st_mode):
            return None
    if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_SERVED:
        return None
    try:
        return path.read_bytes()
    except OSError:
        return None


LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})


def host_name(header: str) -> str | None:
    """The name a Host header gives, without its port, lower case ('[::1]:8000' -> '::1'); None if malformed."""
    header = header.strip().lower()
    if header.startswith("["):
        end = header.find("]")
        rest = header[end + 1:]
        ok = end > 0 and (rest == "" or (rest[:1] == ":" and rest[1:].isdigit()))
        return header[1:end] if ok else None
    name, _, port = header.partition(":")
    return name if name and (not port or port.isdigit()) else None
