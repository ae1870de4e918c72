"""What an artifact says of the people and machines that made it (issue 44 item 6).

An artifact is published as committed, byte for byte: it is the evidence. What a page shows of it goes through the
conditions' allowlist (measure/conditions.py), but the raw file and its viewer show everything, so validate warns
(SC329) when a cited artifact names a host, holds a user's home path or an environment-variable block, naming the
key, so the author can strip it before committing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..core.findings import Finding, finding
from ..measure.evidence import JsonValue

HOST_KEYS = frozenset({"hostname", "host_name", "host", "node", "nodename", "computer_name"})
ENV_KEYS = frozenset({"env", "env_vars", "environ", "environment", "environment_variables"})
HOME = re.compile(r"(?:^|[\s'\"=:;,(])(/home/[^/\s'\"]+|/Users/[^/\s'\"]+|/root(?=/|\b)|[A-Za-z]:\\Users\\"
                  r"[^\\\s'\"]+)")
MAX_NODES = 200_000  # a bound on the walk: an artifact is at most a few MiB


def _walk(node: JsonValue, path: str = "") -> Iterator[tuple[str, str, JsonValue]]:
    """(pointer, key, value) of every member and element, breadth first up to MAX_NODES."""
    queue: list[tuple[str, str, JsonValue]] = [(path, "", node)]
    seen = 0
    while queue and seen < MAX_NODES:
        where, key, value = queue.pop(0)
        seen += 1
        yield where, key, value
        if isinstance(value, dict):
            queue += [(f"{where}/{_escape(str(k))}", str(k), v) for k, v in value.items()]
        elif isinstance(value, list):
            queue += [(f"{where}/{i}", "", v) for i, v in enumerate(value)]


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def said(data: JsonValue) -> list[tuple[str, str]]:
    """(what, the pointer of the first key that says it) for a host name, a home path and an environment block."""
    found: dict[str, str] = {}
    for where, key, value in _walk(data):
        low = key.lower()
        if "host" not in found and low in HOST_KEYS and isinstance(value, str) and value.strip():
            found["host"] = where
        elif "env" not in found and low in ENV_KEYS and isinstance(value, dict) and value:
            found["env"] = where
        elif "home" not in found and isinstance(value, str) and HOME.search(value):
            found["home"] = where
        if len(found) == 3:
            break
    words = {"host": "a host name", "home": "a user's home path", "env": "environment variables"}
    return [(words[kind], found[kind]) for kind in ("host", "home", "env") if kind in found]


def check(rel: str, data: JsonValue) -> list[Finding]:
    """SC329 for what a cited artifact says of who made it, one finding naming every key."""
    found = said(data)
    if not found:
        return []
    listed = "; ".join(f"{what} at {pointer}" for what, pointer in found)
    return [finding("SC329", rel, (1, 1), f"the artifact is published as committed, and it holds {listed}",
                    "remove or blank those keys before committing (the pages show only the conditions' allowlist, "
                    "but the raw artifact is published whole)")]
