"""The parse floor: only read a ledger's YAML with libyaml and its JSON, nothing else.

    python bench/parse_floor.py DIR
"""

import json
import sys
from pathlib import Path

import yaml

root = Path(sys.argv[1])
count = 0
for path in sorted(root.glob("**/*.yaml")):
    if "site" in path.parts:
        continue
    yaml.load(path.read_bytes(), Loader=yaml.CSafeLoader)
    count += 1
for path in sorted((root / "evidence").glob("**/*.json")):
    json.loads(path.read_bytes())
    count += 1
print(count)
