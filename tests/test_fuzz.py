"""Property: whatever a contributor does to a record, the validator answers with findings, never an exception."""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from scorecard.cli import pipeline

from conftest import LEDGERS

BASE = LEDGERS / "base"
RECORD = yaml.safe_load((BASE / "claims/core/alpha.yaml").read_text())

scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=True),
                    st.text(max_size=30), st.sampled_from(["leads", "no-claim", "/runs/0/rps", "evidence/run.json",
                                                            "../x", "https://example.org", "2024-13", "~1", "yes"]))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                         st.dictionaries(st.text(max_size=8), inner, max_size=3)),
                      max_leaves=8)


def paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from paths(v, prefix + (i,))


ALL_PATHS = [p for p in paths(RECORD) if p]
mutation = st.tuples(st.sampled_from(ALL_PATHS), st.sampled_from(["set", "delete", "rename"]), values)


def mutate(record, path, op, value):
    import copy

    record = copy.deepcopy(record)
    parent = record
    for part in path[:-1]:
        parent = parent[part]
    key = path[-1]
    if op == "delete":
        del parent[key]
    elif op == "rename" and isinstance(parent, dict):
        parent[str(value)[:10] or "x"] = parent.pop(key)
    else:
        parent[key] = value
    return record


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(mutation, min_size=1, max_size=3), st.sampled_from(["yaml", "raw"]), st.binary(max_size=40))
def test_mutated_records_never_crash(tmp_path_factory, mutations, form, noise):
    root = Path(tmp_path_factory.mktemp("fuzz")) / "l"
    shutil.copytree(BASE, root)
    record = RECORD
    for path, op, value in mutations:
        try:
            record = mutate(record, path, op, value)
        except (KeyError, IndexError, TypeError):
            continue
    text = yaml.safe_dump(record, allow_unicode=True).encode()
    if form == "raw":
        cut = len(noise) % max(len(text), 1)
        text = text[:cut] + noise + text[cut:]
    (root / "claims/core/alpha.yaml").write_bytes(text)
    result, _ = pipeline.validate(root)
    for f in result.findings:
        assert f.line >= 1 and f.col >= 1 and f.code.startswith("SC") and f.message
