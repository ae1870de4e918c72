"""File versions of a history walk, by blob id, under the readers' size caps: each record version parsed once,
each artifact version held only while a file of the walked tree holds it (memory as validate's for one tree)."""

from __future__ import annotations

from ..core import git
from ..ledger.load import MAX_FILE_BYTES
from ..ledger.model import Dimension
from ..ledger.versions import artifact_at, record_at
from ..measure.evidence import Artifact


class Parsed:
    """File versions parsed by blob id: records kept (small, and a revert finds them), artifacts until released."""

    def __init__(self, reader: git.BlobReader):
        self.reader = reader
        self.models: dict[str, Dimension | None] = {}
        self.artifacts: dict[str, Artifact] = {}
        self.missing = 0

    def model(self, blob: str, path: str) -> Dimension | None:
        """The record version blob as its model; None where it is missing, over the cap or invalid."""
        if blob not in self.models:
            raw = self.reader.read(blob, MAX_FILE_BYTES)  # a record over the record cap is a gap, as validate says
            if raw is None and blob not in self.reader.oversized:
                self.missing += 1
            self.models[blob] = None if raw is None else record_at(raw, path)
        return self.models[blob]

    def artifact(self, blob: str, path: str) -> Artifact:
        """The artifact version blob parsed (its error set where it is missing, over the cap or invalid)."""
        if blob not in self.artifacts:
            art = self.artifacts[blob] = artifact_at(self.reader.read(blob), path)
            art.raw = b""  # only the data is needed
        return self.artifacts[blob]

    def release(self, blob: str) -> None:
        """An artifact version no file of the tree holds any more: its parsed data is dropped, so a walk holds
        at most what validate holds for one tree, however many large versions the history has."""
        self.artifacts.pop(blob, None)
