"""The write stage links a rebuild's unchanged files from the site it replaces, and only when that is safe."""

from __future__ import annotations

import os
from pathlib import Path

from scorecard.cli import pipeline


def build(root: Path, out: Path) -> dict[str, tuple[int, bytes]]:
    """Build, and each file's inode and bytes."""
    assert not pipeline.build(root, out).refused
    return {p.relative_to(out).as_posix(): (p.stat().st_ino, p.read_bytes()) for p in sorted(out.rglob("*"))
            if p.is_file()}


def test_a_rebuild_links_what_did_not_change_and_writes_what_did(base_ledger, tmp_path):
    out = tmp_path / "site"
    first = build(base_ledger, out)
    record = base_ledger / "claims/core/beta.yaml"
    record.write_text(record.read_text().replace("Latency matters.", "Latency matters a lot."))
    second = build(base_ledger, out)
    fresh = build(base_ledger, tmp_path / "fresh")
    assert {rel: data for rel, (_, data) in second.items()} == {rel: data for rel, (_, data) in fresh.items()}
    assert second["_assets/style.css"][0] == first["_assets/style.css"][0]  # unchanged: the same file, linked
    assert second["core/index.html"][0] != first["core/index.html"][0]  # changed: written
    assert b"a lot" in second["core/index.html"][1]
    assert all(os.stat(out / rel).st_nlink == 1 for rel in ("_assets/style.css", "core/index.html"))


def test_a_file_edited_in_the_old_site_is_written_afresh(base_ledger, tmp_path):
    out = tmp_path / "site"
    first = build(base_ledger, out)
    page = out / "_assets/style.css"
    data = page.read_bytes()
    page.write_bytes(data[:-2] + b"XX")  # the same size, other bytes
    second = build(base_ledger, out)
    assert second["_assets/style.css"][1] == first["_assets/style.css"][1] == data


def test_only_a_plain_private_file_of_the_old_site_is_linked(base_ledger, tmp_path):
    out = tmp_path / "site"
    build(base_ledger, out)
    outside = tmp_path / "outside"
    outside.mkdir()
    # A folder of the old site replaced by a link to a folder outside with the very bytes a build writes
    # (as a pull request could commit one under the ledger's site/): its file must not join the site.
    (out / "core").rename(outside / "core")
    (out / "core").symlink_to(outside / "core")
    # A file with a second name elsewhere, and one with another mode: written afresh too.
    os.link(out / "index.html", outside / "index-twin.html")
    os.chmod(out / "_assets/site.js", 0o755)
    second = build(base_ledger, out)
    assert second["core/index.html"][0] != os.stat(outside / "core/index.html").st_ino
    assert os.stat(outside / "core/index.html").st_nlink == 1
    assert second["index.html"][0] != os.stat(outside / "index-twin.html").st_ino
    assert os.stat(out / "_assets/site.js").st_mode & 0o777 != 0o755
    assert not (out / "core").is_symlink()


def test_a_symlinked_or_special_file_of_the_old_site_is_never_linked(base_ledger, tmp_path):
    """A file of the old site that is a symlink to the very bytes a build writes (a hard link to it would put the
    symlink in the new site), or a FIFO (which must not hang the build): written afresh, a plain file."""
    out = tmp_path / "site"
    first = build(base_ledger, out)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "style.css").write_bytes((out / "_assets/style.css").read_bytes())
    (out / "_assets/style.css").unlink()
    (out / "_assets/style.css").symlink_to(outside / "style.css")
    (out / "_assets/favicon.svg").unlink()
    os.mkfifo(out / "_assets/favicon.svg")
    second = build(base_ledger, out)
    for rel in ("_assets/style.css", "_assets/favicon.svg"):
        assert not (out / rel).is_symlink() and (out / rel).is_file() and second[rel][1] == first[rel][1]
    assert second["_assets/style.css"][0] != os.stat(outside / "style.css").st_ino
    assert os.stat(outside / "style.css").st_nlink == 1
