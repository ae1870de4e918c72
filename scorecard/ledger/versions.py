"""Committed versions of ledger files, read from git blobs: a record as its model, an artifact parsed.

Shared by the history walk and by the review's "what changed since the stamp"; a version that
does not parse or validate is None (a record) or carries its error (an artifact), never an exception.
"""

from __future__ import annotations

from ..measure.evidence import Artifact, parse_artifact
from .yamldoc import Document, parse_bytes
from .model import Dimension


def record_at(raw: bytes, path: str) -> Dimension | None:
    """The dimension a committed record file holds, or None when it does not parse or validate."""
    doc = Document(path)
    parse_bytes(raw, doc, [])
    if not isinstance(doc.data, dict):
        return None
    try:
        return Dimension.model_validate(doc.data)
    except ValueError:
        return None


def artifact_at(raw: bytes | None, path: str) -> Artifact:
    """A committed artifact parsed (its error set when it is invalid); raw None means git lacks the blob."""
    art = Artifact(path)
    if raw is None:
        art.error = "missing"
    else:
        art.raw = raw
        parse_artifact(art)
    return art
