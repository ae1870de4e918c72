"""The wheel carries the theme and the schemas, so the installed command works from anywhere."""

from __future__ import annotations

import subprocess
import sys
import zipfile

from conftest import REPO, run_cli


def test_wheel_contents(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
                           "-w", str(tmp_path), str(REPO)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    (wheel,) = tmp_path.glob("scorecard-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for rel in ("base.html", "index.html", "category.html", "evidence.html", "document.html", "macros.html",
                "badge.svg", "style.css", "site.js", "favicon.svg"):
        assert f"scorecard/templates/{rel}" in names, rel
    for kind in ("scorecard", "category", "dimension"):
        assert f"scorecard/schema/{kind}.schema.json" in names
    assert "scorecard/cli.py" in names
    assert not any(n.startswith(("claims/", "tests/", "evidence/")) for n in names)


def test_installed_command_builds_from_another_folder(tmp_path):
    proc = run_cli("build", "--root", str(REPO), "--out", str(tmp_path / "site"), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "site/index.html").is_file()
