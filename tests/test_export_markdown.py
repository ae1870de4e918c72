"""Issue 43 item 7: the scorecard as a Markdown table, and kept current in a README's marked block.

The promises: the table has one row per dimension chosen, with the cells the pages show; ledger text in it is
inert on GitHub (a title never adds a cell, a link, HTML, math or a mention: what GitHub links although
CommonMark does not sits in a code span); the README is written only between exactly one pair of markers
outside fenced code, keeping every other byte, and never appended to.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from scorecard.cli import readme
from scorecard.site import mdtable

from conftest import LEDGERS, REPO, copy_ledger, run_cli

MD = MarkdownIt("commonmark").enable("table")
README = "# Project\n\nIntro.\n\n<!-- scorecard:start -->\nold table\n<!-- scorecard:end -->\n\nAfter.\n"


def _cells(table: str) -> list[list[str]]:
    html = MD.render(table)
    rows = re.findall(r"<tr>(.*?)</tr>", html, re.S)
    return [re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S) for row in rows]


def test_the_example_ledger_as_a_table(tmp_path):
    proc = run_cli("export", "--root", str(REPO))
    assert proc.returncode == 0, proc.stderr
    rows = _cells(proc.stdout)
    assert rows[0] == ["Category", "Dimension", "Status", "Bar", "Ours", "Against the bar"]
    assert all(len(row) == 6 for row in rows)
    records = [p for p in (REPO / "claims").rglob("*.yaml") if p.name != "_category.yaml"]
    assert len(rows) - 1 == len(records)
    ttft = next(row for row in rows if row[1].startswith("Time to first token"))
    assert ttft[2:] == ["◐ parity (±5 %) · sample data", "33 ms", "33.8 ms",
                        "level with the bar: within ±5% (2.4% slower)"]
    assert "no Details column: set base_url" in proc.stderr
    assert "ago" not in proc.stdout  # no relative dates: the block changes only when the ledger does


def test_category_and_status_choose_rows_and_base_url_adds_links(tmp_path):
    root = _example(tmp_path)
    settings_file = root / "scorecard.yaml"
    settings_file.write_text(settings_file.read_text() + "base_url: https://example.org/card/\n")
    proc = run_cli("export", "--root", str(root), "--category", "latency-and-reuse", "--status", "trails")
    assert proc.returncode == 0, proc.stderr
    rows = _cells(proc.stdout)
    assert rows[0] == ["Dimension", "Status", "Bar", "Ours", "Against the bar", "Details"]
    assert len(rows) == 2 and rows[1][1].startswith("◑ trails")
    assert '<a href="https://example.org/card/latency-and-reuse/#' in MD.render(proc.stdout)
    assert "Details column" not in proc.stderr
    wrong = run_cli("export", "--root", str(root), "--category", "nope")
    assert wrong.returncode == 2 and "no category nope" in wrong.stderr


def test_a_base_url_that_could_close_the_link_is_percent_encoded(tmp_path):
    """The hostile pass: base_url: "https://e.com/x)![x](https://evil.example/t.png" made the Details cell an image."""
    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    settings_file = root / "scorecard.yaml"
    settings_file.write_text(settings_file.read_text() +
                             'base_url: "https://e.com/x)![x](https://evil.example/t.png**B**@octocat~~s~~$1$("\n')
    proc = run_cli("export", "--root", str(root))
    assert proc.returncode == 0, proc.stderr
    html = MD.render(proc.stdout)
    assert "<img" not in html and "<strong>" not in html and "<del>" not in html and html.count("<a ") == 2
    assert all(href.startswith("https://e.com/x%29%21%5Bx%5D%28https://evil.example/t.png")
               for href in re.findall(r'href="([^"]+)"', html))


def _example(tmp_path: Path) -> Path:
    import shutil

    root = tmp_path / "ledger"
    shutil.copytree(REPO, root, ignore=shutil.ignore_patterns(".git", ".venv", "site", "tests", "bench", "node_modules",
                                                              "__pycache__", ".*_cache"))
    return root


TRICKY = ["a | b", "<script>x</script>", "@octocat and @org/team", "fixes #12 and owner/repo#3", "www.example.com",
          "see https://example.org/x", "`code` and ``two``", "*not* _emph_ ~~no~~", "[a](javascript:x)", "![i](x.png)",
          "back\\slash", "$x$ and $$y$$", "&amp; &lt;", "line\nbreak", "<!-- scorecard:end -->", "mail a@b.co", "GH-7",
          # the hostile pass: GitHub tests the character before a mention in ASCII, text node by text node
          "`@octocat", "a@b.co@octocat", "@a@octocat", "é@octocat", "#1GH-12", "éGH-12", "x_@octocat"]


@pytest.mark.parametrize("title", TRICKY)
def test_ledger_text_in_a_cell_is_shown_as_typed_and_links_nothing(title):
    typed = mdtable.cell(title)
    row = f"| x | {typed} | y |\n|---|---|---|\n"
    html = MD.render(row)
    (cells,) = _cells(row)[1:] or _cells(row)
    assert len(cells) == 3 and cells[0] == "x" and cells[2] == "y"
    assert "<a " not in html and "<img" not in html and "<script" not in html and "<em>" not in html
    assert _unescape(re.sub(r"</?code>", "", cells[1])) == " ".join(title.split())
    codes = re.findall(r"<code>(.*?)</code>", cells[1])
    for token in re.findall(r"@\w+|#\d+|www\.|https?://|GH-\d", title):  # what GitHub would link
        assert any(token in _unescape(code) for code in codes), (token, typed)
    outside = re.sub(r"(`+) .*? \1", "", typed)
    assert not re.search(r"(?<!\\)\$", outside), typed  # GitHub reads $...$ as math


def _unescape(html: str) -> str:
    import html as h

    return h.unescape(html)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=60))
def test_no_text_adds_a_cell_or_markup(title):
    row = f"| x | {mdtable.cell(title)} | y |\n|---|---|---|\n"
    cells = _cells(row)
    assert len(cells) == 1 or len(cells[1]) == 3
    body = cells[0] if len(cells) == 1 else cells[0]
    assert len(body) == 3 and body[0] == "x" and body[2] == "y"
    html = MD.render(row)
    assert "<a " not in html and "<img" not in html and "<em>" not in html and "<strong>" not in html


# --- the README block -------------------------------------------------------------------------------------------

TABLE = "| a | b |\n|---|---|\n| 1 | 2 |\n"


def test_the_block_is_replaced_and_every_other_byte_kept(tmp_path):
    path = tmp_path / "README.md"
    path.write_text(README)
    assert readme.update(path, TABLE, check=False) is False
    assert path.read_text() == README.replace("old table\n", TABLE)
    assert readme.update(path, TABLE, check=False) is True  # already current: nothing written
    assert readme.update(path, TABLE, check=True) is True
    assert readme.update(path, TABLE.replace("2", "3"), check=True) is False
    assert path.read_text() == README.replace("old table\n", TABLE)  # --check wrote nothing


def test_line_endings_and_a_byte_order_mark_are_kept(tmp_path):
    path = tmp_path / "README.md"
    path.write_bytes(b"\xef\xbb\xbf" + README.replace("\n", "\r\n").encode())
    readme.update(path, TABLE, check=False)
    raw = path.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf") and b"\n" not in raw.replace(b"\r\n", b"")
    assert raw.decode("utf-8-sig") == README.replace("old table\n", TABLE).replace("\n", "\r\n")


@pytest.mark.parametrize("text, said", [
    ("no markers\n", "found 0 <!-- scorecard:start --> and 0 <!-- scorecard:end -->"),
    (README + README, "found 2 <!-- scorecard:start --> and 2 <!-- scorecard:end -->"),
    ("<!-- scorecard:end -->\n<!-- scorecard:start -->\n", "comes before"),
    ("```\n<!-- scorecard:start -->\n<!-- scorecard:end -->\n```\n", "2 more inside code"),
    ("~~~~\n<!-- scorecard:start -->\n~~~\n<!-- scorecard:end -->\n~~~~\n", "2 more inside code"),
    # the hostile pass: forms a line-by-line fence scan got wrong, as CommonMark reads them
    ("```a`b\n```\n<!-- scorecard:start -->\n<!-- scorecard:end -->\n```\n", "2 more inside code"),
    ("```\n``` ```\n<!-- scorecard:start -->\n<!-- scorecard:end -->\n```\n", "2 more inside code"),
    ("- ```\n  <!-- scorecard:start -->\n  <!-- scorecard:end -->\n  ```\n", "2 more inside code"),
    ("text\n\n    <!-- scorecard:start -->\n    <!-- scorecard:end -->\n", "2 more inside code"),
    ("intro\u2028<!-- scorecard:start -->\u2028x\u2028<!-- scorecard:end -->\n", "found 0 <!-- scorecard:start"),
    ("<pre>\n<!-- scorecard:start -->\n<!-- scorecard:end -->\n</pre>\n", "2 more inside code"),
    ("> <!-- scorecard:start -->\n> <!-- scorecard:end -->\n", "2 more inside code"),
    ("text <!-- scorecard:start --> inline\n<!-- scorecard:end -->\n", "found 0 <!-- scorecard:start -->"),
])
def test_without_exactly_one_block_nothing_is_written(tmp_path, text, said):
    path = tmp_path / "README.md"
    path.write_text(text)
    with pytest.raises(readme.ReadmeRefused) as exc:
        readme.update(path, TABLE, check=False)
    assert said in exc.value.message and "nothing was written" in exc.value.message
    assert path.read_text() == text


def test_a_marker_indented_up_to_three_spaces_or_with_spaces_after_still_counts(tmp_path):
    path = tmp_path / "README.md"
    path.write_text("  <!-- scorecard:start -->  \nx\n   <!-- scorecard:end -->\n")
    readme.update(path, TABLE, check=False)
    assert path.read_text() == "  <!-- scorecard:start -->  \n" + TABLE + "   <!-- scorecard:end -->\n"


def test_a_file_with_carriage_returns_alone_keeps_them(tmp_path):
    path = tmp_path / "README.md"
    path.write_bytes(README.replace("\n", "\r").encode())
    readme.update(path, TABLE, check=False)
    assert path.read_bytes() == README.replace("old table\n", TABLE).replace("\n", "\r").encode()


def test_a_title_holding_a_marker_or_a_pipe_cannot_move_the_block(tmp_path):
    table = mdtable.cell("<!-- scorecard:end -->") + " | " + mdtable.cell("a | b")
    assert "<!--" not in table and table.count(" | ") == 1
    path = tmp_path / "README.md"
    path.write_text(README)
    readme.update(path, "| " + table + " |\n", check=False)
    readme.update(path, TABLE, check=False)  # the block is still found exactly once
    assert path.read_text() == README.replace("old table\n", TABLE)


def test_a_symlink_or_a_folder_is_refused(tmp_path):
    target = tmp_path / "real.md"
    target.write_text(README)
    (tmp_path / "README.md").symlink_to(target)
    with pytest.raises(readme.ReadmeRefused, match="symlink"):
        readme.update(tmp_path / "README.md", TABLE, check=False)
    assert target.read_text() == README
    with pytest.raises(readme.ReadmeRefused):
        readme.update(tmp_path, TABLE, check=False)


def test_the_command_writes_checks_and_refuses(tmp_path):
    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    path = tmp_path / "README.md"
    path.write_text(README)
    stale = run_cli("export", "--root", str(root), "--readme", str(path), "--check")
    assert stale.returncode == 1 and "stale" in stale.stdout and path.read_text() == README
    done = run_cli("export", "--root", str(root), "--readme", str(path))
    assert done.returncode == 0 and "updated" in done.stdout and "Alpha throughput" in path.read_text()
    current = run_cli("export", "--root", str(root), "--readme", str(path), "--check")
    assert current.returncode == 0 and "current" in current.stdout
    path.write_text("no markers\n")
    refused = run_cli("export", "--root", str(root), "--readme", str(path))
    assert refused.returncode == 1 and "nothing was written" in refused.stderr and path.read_text() == "no markers\n"
    alpha = root / "claims/core/alpha.yaml"
    alpha.write_text(alpha.read_text().replace("status: leads", "status: trails"))
    broken = run_cli("export", "--root", str(root))
    assert broken.returncode == 1 and "export refused" in broken.stderr
