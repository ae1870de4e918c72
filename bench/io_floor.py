"""The I/O floor of a build: read the ledger's files, write a site's files, swap the folders.

    python bench/io_floor.py LEDGER SITE OUT

Reads every file under LEDGER (claims, evidence, documents), then writes every file of SITE (a
site scorecard built from LEDGER: the same paths and bytes) into a new folder beside OUT, puts it
at OUT and removes the previous one, as a build does. Nothing else: no parsing, no rendering.
"""

import os
import shutil
import sys
import tempfile
from pathlib import Path

ledger, site, out = (Path(a) for a in sys.argv[1:4])
for folder, _, names in os.walk(ledger):
    if Path(folder).name != "site":
        for name in names:
            Path(folder, name).read_bytes()
files = [(Path(folder, name).relative_to(site), Path(folder, name).read_bytes())
         for folder, _, names in os.walk(site) for name in names]
tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}-tmp-", dir=out.parent))
made = set()
for rel, data in files:
    target = tmp / rel
    if target.parent not in made:
        target.parent.mkdir(parents=True, exist_ok=True)
        made.add(target.parent)
    target.write_bytes(data)
old = None
if out.exists():
    old = Path(tempfile.mkdtemp(prefix=f".{out.name}-old-", dir=out.parent))
    os.rename(out, old / "site")
os.rename(tmp, out)
if old is not None:
    shutil.rmtree(old)
print(len(files))
