"""The wheel carries the theme and the schemas, so the installed command works from anywhere."""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile

from conftest import REPO, run_cli


def test_wheel_contents(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
                           "-w", str(tmp_path), str(REPO)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    (wheel,) = tmp_path.glob("scorecard_ledger-0.1.0-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for rel in ("base.html", "index.html", "category.html", "evidence.html", "document.html", "macros.html",
                "badge.svg", "style.css", "site.js", "favicon.svg"):
        assert f"scorecard/templates/{rel}" in names, rel
    for kind in ("scorecard", "category", "dimension"):
        assert f"scorecard/schema/{kind}.schema.json" in names
    modules = {p.relative_to(REPO).as_posix() for p in (REPO / "scorecard").rglob("*.py")
               if "__pycache__" not in p.parts}
    assert len(modules) > 50 and modules <= names, sorted(modules - names)  # every layer's modules, __init__ included
    assert not any(n.startswith(("claims/", "tests/", "evidence/")) for n in names)


def test_installed_command_builds_from_another_folder(tmp_path):
    proc = run_cli("build", "--root", str(REPO), "--out", str(tmp_path / "site"), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "site/index.html").is_file()


def test_one_name_and_one_version_everywhere():
    import tomllib

    from scorecard import DISTRIBUTION, __version__

    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert (project["name"], project["version"]) == (DISTRIBUTION, __version__) == ("scorecard-ledger", "0.1.0")
    proc = run_cli("--version")
    assert proc.returncode == 0 and proc.stdout == "scorecard 0.1.0 (pip install scorecard-ledger==0.1.0)\n"
    assert f"## [{__version__}]" in (REPO / "CHANGELOG.md").read_text()
    for doc in [*(REPO / "docs").rglob("*.md"), *(REPO / "docs/examples").iterdir(), REPO / "README.md"]:
        text = doc.read_text()
        assert not re.search(r"pip install scorecard(?![-\w])", text), \
            f"{doc}: the index's 'scorecard' is another project"
