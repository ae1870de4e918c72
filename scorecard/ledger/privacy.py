"""What an artifact says of the people and machines that made it (issue 44 item 6).

An artifact is published as committed, byte for byte: it is the evidence. What a page shows of it goes through the
conditions' allowlist (measure/conditions.py), but the raw file and its viewer show everything, so validate warns
(SC329) when a cited artifact names a host, holds a user's home path or an environment-variable block, naming the
key, so the author can strip it before committing.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterator

from ..core.patterns import lazy
from ..core.findings import Finding, finding
from ..measure.evidence import JsonValue

# A host's or a user's name, by key, where a tool records its machine (a benchmark's own parameter named node is not)
HOST_KEYS = frozenset({"hostname", "host_name", "host", "node", "nodename", "computer_name", "computername", "fqdn",
                       "user", "username", "user_name", "login"})
HOST_HOLDERS = frozenset({"", "machine_info", "metadata", "context", "params", "server_info", "meta", "commit_info"})
NOT_A_HOST = frozenset({"", "localhost", "127.0.0.1", "0.0.0.0", "::", "::1"})  # an address of any machine
ENV_KEYS = frozenset({"env", "env_vars", "environ", "environment", "environment_variables"})
HOME = lazy(r"(?:^|[\s'\"=:;,(\[/])(?:/var)?(/home/[^/\s'\"]+|/Users/(?!Shared\b)[^/\s'\"]+|/root(?=[/\s'\"]|$)|"
                  r"~[a-z_][\w-]*/|(?:/mnt/[a-z]/|[A-Za-z]:\\)Users[/\\][^/\\\s'\"]+)", re.IGNORECASE)
MAX_NODES = 200_000  # a bound on the walk: an artifact is at most a few MiB


def _walk(node: JsonValue, path: str = "") -> Iterator[tuple[str, str, str, JsonValue]]:
    """(pointer, the parent's key, key, value) of every member and element, breadth first up to MAX_NODES."""
    queue: deque[tuple[str, str, str, JsonValue]] = deque([(path, "", "", node)])
    seen = 0
    while queue and seen < MAX_NODES:
        where, parent, key, value = queue.popleft()
        seen += 1
        yield where, parent, key, value
        if isinstance(value, dict):
            queue.extend((f"{where}/{_escape(str(k))}", key, str(k), v) for k, v in value.items())
        elif isinstance(value, list):  # a number says nothing of anyone: runs are not walked one by one
            queue.extend((f"{where}/{i}", key, "", v) for i, v in enumerate(value) if isinstance(v, (str, dict, list)))


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def said(data: JsonValue) -> list[tuple[str, str]]:
    """(what, the pointer of the first key that says it) for a host name, a home path and an environment block."""
    found: dict[str, str] = {}
    for where, parent, key, value in _walk(data):
        low = key.lower()
        if "host" not in found and isinstance(value, str) and value.strip().lower() not in NOT_A_HOST and \
                low in HOST_KEYS and parent.lower() in HOST_HOLDERS:
            found["host"] = where
        elif "env" not in found and low in ENV_KEYS and isinstance(value, (dict, list, str)) and value:
            found["env"] = where
        elif "home" not in found and isinstance(value, str) and HOME.search(value):
            found["home"] = where
        if len(found) == 3:
            break
    words = {"host": "a host name", "home": "a user's home path", "env": "environment variables"}
    return [(words[kind], found[kind]) for kind in ("host", "home", "env") if kind in found]


# asv names a results file after its environment, which spells the interpreter's path: py_home_alice_venv_bin_python
NAMED_HOME = lazy(r"(?:^|[_/.-])(?:home|Users)_[^_/]+_", re.IGNORECASE)


def check(rel: str, data: JsonValue) -> list[Finding]:
    """SC329 for what a cited artifact says of who made it, one finding naming every key (and its own path, where
    that spells a home folder)."""
    found = said(data)
    if NAMED_HOME.search(rel):
        found.append(("a user's home path", ""))
    if not found:
        return []
    listed = "; ".join(f"{what} at {pointer}" if pointer else f"{what} in its file name" for what, pointer in found)
    return [finding("SC329", rel, (1, 1), f"the artifact is published as committed, and it holds {listed}",
                    "remove or blank those keys before committing: the raw artifact is published whole (a tool's "
                    "metadata reaches the pages only through the conditions' allowlist, but an entry's name, such as "
                    "a hyperfine command, is shown as the record cites it)")]
