"""How long after saving one record `scorecard serve` serves the updated page.

    python bench/serve_latency.py [N] [RUNS]     (default 2000 dimensions, 5 saves)

Starts the real command on loopback, edits one dimension's title, and polls its category
page every 20 ms until the new title appears. Prints the median and worst latency.
"""

from __future__ import annotations

import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import make_ledger  # noqa: E402


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    root = Path(tempfile.mkdtemp(prefix="scorecard-serve-")) / "ledger"
    make_ledger.make(n, root)
    cmd = [str(Path(sys.executable).parent / "scorecard"), "serve", "--port", "0"]
    proc = subprocess.Popen(cmd, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        url = None
        while url is None:
            m = re.search(r"at (http://127\.0\.0\.1:\d+/)", proc.stdout.readline())
            url = m and m.group(1)
        record = root / "claims/category-0003/dimension-00061.yaml"
        page = url + "category-0003/index.html"
        latencies = []
        for i in range(runs):
            time.sleep(0.5)
            while json.loads(urllib.request.urlopen(url + "__scorecard__/status", timeout=5).read())["building"]:
                time.sleep(0.05)  # one change on an idle server: wait for the previous full rebuild
            text = record.read_text()
            marker = f"Edited title {i}"
            record.write_text(re.sub(r"^title: .*$", f"title: {marker}", text, count=1, flags=re.M))
            saved = time.perf_counter()
            while marker not in urllib.request.urlopen(page, timeout=5).read().decode():
                time.sleep(0.02)
            latencies.append(time.perf_counter() - saved)
        print(f"{n} dimensions: updated page served {statistics.median(latencies):.3f} s after the save "
              f"(median of {runs}; worst {max(latencies):.3f} s)")
    finally:
        proc.terminate()
        proc.wait(timeout=10)


if __name__ == "__main__":
    main()
