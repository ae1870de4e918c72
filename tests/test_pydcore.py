"""ledger/pydcore.py: pydantic-core's engine, loaded alone, is the very module pydantic's import gives later."""

from __future__ import annotations

import subprocess
import sys

PROBE_BAD_RECORD = """
import sys
from scorecard.ledger import model
assert "pydantic_core" not in sys.modules and "pydantic_core.core_schema" not in sys.modules
engine = sys.modules["pydantic_core._pydantic_core"]
try:
    model.Dimension.model_validate({"title": 3})
except engine.ValidationError as exc:
    mine = exc
import pydantic_core, pydantic
assert pydantic_core.ValidationError is engine.ValidationError and isinstance(mine, pydantic_core.ValidationError)
assert pydantic_core.SchemaValidator is engine.SchemaValidator and pydantic_core.__version__ == engine.__version__
import pydantic_core._pydantic_core as again
assert again is engine
class M(pydantic.BaseModel):
    n: int
try:
    M(n="x")
except pydantic.ValidationError as exc:
    assert type(exc) is engine.ValidationError
print(sorted({e["type"] for e in mine.errors()}))
"""


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


def test_the_engine_alone_validates_and_pydantic_imported_later_shares_it():
    proc = _run(PROBE_BAD_RECORD)
    assert proc.returncode == 0, proc.stderr
    assert "missing" in proc.stdout and "string_type" in proc.stdout


def test_where_the_engine_cannot_be_found_alone_the_package_is_imported():
    code = ("import importlib.machinery as m\n"
            "class Nothing:\n    def __init__(self, *a): pass\n    def find_spec(self, name): return None\n"
            "m.FileFinder = Nothing\n"
            "import sys\nfrom scorecard.ledger import pydcore, model\n"
            "assert pydcore.pydantic_core is sys.modules['pydantic_core'], pydcore.pydantic_core\n"
            "v = model.validator('Settings')\n"
            "try:\n    model.Settings.model_validate({'nope': 1})\n"
            "except sys.modules['pydantic_core'].ValidationError:\n    print('refused')\n")
    proc = _run(code)
    assert proc.returncode == 0 and proc.stdout.strip() == "refused", proc.stderr


def test_a_process_that_imported_the_package_first_uses_it():
    code = ("import sys, pydantic_core\nfrom scorecard.ledger import pydcore\n"
            "assert pydcore.engine() is sys.modules['pydantic_core._pydantic_core']\n"
            "assert pydcore.pydantic_core.ValidationError is pydantic_core.ValidationError\nprint('ok')\n")
    proc = _run(code)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr
