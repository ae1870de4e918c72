"""pydantic-core's compiled engine, loaded without its package's Python layer (issue 46, fourth session: the hook).

`import pydantic_core` runs the package's `__init__`, which imports `core_schema` (some ninety TypedDicts and the
functions that write schemas by hand) and typing_extensions: 22-25 ms of every hook run, for names a run never
uses (the records' validators are made from ledger/model.py's schema, plain data). What a run uses, the
validators, serializers and errors, is the package's extension module, `pydantic_core._pydantic_core`. It is
loaded here as the import system loads it, found by the import system's own finders and under its own name in
sys.modules, so that a later `import pydantic_core` (pydantic's, schemagen's, or the engine's own for one
sentinel) takes this very module from there: one ValidationError class in the process, whoever imports it.

Where the package is laid out otherwise (no such extension beside its `__init__`), or the package is imported
already, the package is imported as usual and its engine used: only slower.

`pydantic_core` here is the engine at run time and the package to the type checker (whose names the engine
holds: SchemaValidator, SchemaSerializer, ValidationError, PydanticCustomError, __version__).

Lazy import: importlib's finders (the engine's first load), and the package itself, where the engine cannot be
loaded alone.
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import TYPE_CHECKING

ENGINE = "pydantic_core._pydantic_core"


def _direct() -> ModuleType | None:
    """The engine, loaded from the package's folder without running the package; None where it is not there."""
    from importlib.machinery import EXTENSION_SUFFIXES, ExtensionFileLoader, FileFinder
    from importlib.util import find_spec, module_from_spec

    package = find_spec("pydantic_core")  # a top-level name: found, not imported
    if package is None or not package.submodule_search_locations:
        return None
    for folder in package.submodule_search_locations:
        spec = FileFinder(folder, (ExtensionFileLoader, EXTENSION_SUFFIXES)).find_spec(ENGINE)
        if spec is not None and spec.loader is not None:
            module = module_from_spec(spec)
            sys.modules[ENGINE] = module
            try:
                spec.loader.exec_module(module)
            except BaseException:
                sys.modules.pop(ENGINE, None)
                raise
            return module
    return None


def engine() -> ModuleType:
    """pydantic-core's engine module, loaded once a process."""
    loaded = sys.modules.get(ENGINE)
    if loaded is not None:
        return loaded
    if "pydantic_core" not in sys.modules:
        try:
            module = _direct()
        except Exception:  # noqa: BLE001 - any other layout: the package's own import below
            module = None
        if module is not None and all(hasattr(module, name) for name in _USED):
            return module
    import pydantic_core  # its names are the engine's

    return pydantic_core


_USED = ("SchemaValidator", "SchemaSerializer", "ValidationError", "PydanticCustomError", "__version__")

if TYPE_CHECKING:
    import pydantic_core
else:
    pydantic_core = engine()
