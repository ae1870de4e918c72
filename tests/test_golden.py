"""Each golden fixture ledger builds to exactly its committed site (tests/golden/base, tests/golden/conditions)."""

from __future__ import annotations

import difflib

from conftest import TESTS
import pytest

from regen_golden import LEDGERS, build_golden


def listing(root):
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


@pytest.mark.parametrize("name", sorted(LEDGERS))
def test_golden_site(tmp_path, name):
    GOLDEN = TESTS / "golden" / name
    out = tmp_path / "site"
    build_golden(out, name)
    assert listing(out) == listing(GOLDEN), "files differ: run tests/regen_golden.py and review the diff"
    for rel in listing(GOLDEN):
        want, got = (GOLDEN / rel).read_bytes(), (out / rel).read_bytes()
        if want != got:
            diff = "\n".join(difflib.unified_diff(want.decode(errors="replace").splitlines(),
                                                  got.decode(errors="replace").splitlines(), rel, rel, lineterm="",
                                                  n=2))
            raise AssertionError(f"{rel} differs from the golden copy (regenerate with tests/regen_golden.py):\n"
                                 f"{diff[:4000]}")
