"""Check stage: loaded documents -> validated records and findings.

Schema errors come from the records' validators (pydantic-core's, for schemadef.py's pydantic models) and are mapped
to findings here, with hints read from the pydantic models (imported only when a record has a schema error); the
rules that need more than one record or the evidence files live in rules.py.

Lazy import: pydantic (schemadef.py's models), for the hints of a schema error only (the hook's imports).
"""

from __future__ import annotations

import typing
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING


from ..core.patterns import lazy
from ..core.nearest import close_matches
from ..measure.evidence import ArtifactStore
from ..core.findings import Finding, finding, kind_of
from .load import LoadedLedger
from .yamldoc import Document
from .model import Category, Dimension, Record, Settings
from .records import CategoryRecord, CheckResult, DimensionRecord, Ledger
from ..core.statuses import display_key
from . import rules
from .checkmemo import CheckMemo
from .pydcore import pydantic_core

if TYPE_CHECKING:
    from pydantic import BaseModel
    from pydantic_core import ErrorDetails

def check(loaded: LoadedLedger, store: ArtifactStore, keep_marks: bool = False,
          memo: CheckMemo | None = None) -> CheckResult:
    """Run every rule over the loaded ledger, reckoning from its place's date; findings come back sorted.

    A record's raw data and line marks are needed only while its own rules run; unless
    keep_marks (serve reuses parsed files), they are dropped then, to bound a large ledger's memory.
    The categories may be streamed (load.stream_ledger): each is checked as soon as its files are
    parsed, and load's findings are taken once all are. With a memo (validate's, checkmemo.py), a record whose
    clean check still holds is not checked again.
    """
    findings: list[Finding] = []
    today = loaded.place.today
    settings = _bounded(_validate(loaded.settings, Settings, findings), loaded.settings, findings) \
        if loaded.settings else None
    if settings is None:
        # defaults for the rest:
        settings = Settings.model_validate({"title": "(invalid scorecard.yaml)", "subject": "subject"})
    categories: list[CategoryRecord] = []
    seen_ids: dict[str, str] = {}
    count = 0
    for cat in loaded.categories:
        meta = _validate(cat.meta, Category, findings) if cat.meta else None
        if meta is not None:
            findings.extend(rules.check_category_placeholders(cat.meta, meta.summary))
        dims: list[DimensionRecord] = []
        for doc in cat.dimensions:
            count += 1
            dim_id = Path(doc.file).stem
            if dim_id in seen_ids:
                findings.append(finding("SC006", doc.file, (1, 1),
                                        f"dimension id '{dim_id}' is already used by {seen_ids[dim_id]}",
                                        "ids are unique across the ledger: rename one of the files"))
            else:
                seen_ids[dim_id] = doc.file
            model = _validate(doc, Dimension, findings)
            if model is None:
                continue
            record = DimensionRecord(dim_id, cat.slug, doc, model)
            record = memo.check(record, settings, store, today, findings) if memo is not None else \
                _checked(record, settings, store, today, findings)
            if not keep_marks:  # the model holds everything later stages read
                doc.marks = doc.key_marks = {}
                doc.data = None
            dims.append(record)
        if not cat.dimensions and cat.meta is not None:
            findings.append(finding("SC008", cat.meta.file, (1, 1), f"category '{cat.slug}' has no dimensions",
                                    "add a dimension file next to _category.yaml, or remove the category"))
        if meta is not None:
            dims.sort(key=lambda d: display_key(d.model.order, d.id))
            categories.append(CategoryRecord(cat.slug, cat.meta, meta, dims))
    findings.extend(loaded.findings)  # complete now that every category has been read
    findings.extend(rules.check_artifacts(store))
    categories.sort(key=lambda c: display_key(c.model.order, c.slug))
    findings.sort(key=Finding.sort_key)
    return CheckResult(Ledger(loaded.place, settings, categories), findings, count,
                       memo.reused if memo is not None else 0)


MAX_TOLERANCE = 0.2  # the widest parity_tolerance (FORMAT.md "The verdict")


def _bounded(settings: Settings | None, doc: Document, findings: list[Finding]) -> Settings | None:
    """The settings, with SC515 for a parity_tolerance over 0.2 (the rest of the check then judges at 0.2)."""
    if settings is None or settings.parity_tolerance <= MAX_TOLERANCE:
        return settings
    findings.append(finding("SC515", doc.file, doc.pos(("parity_tolerance",)),
                            f"parity_tolerance is {settings.parity_tolerance:g}: a level with the bar wider than "
                            f"±{MAX_TOLERANCE:.0%} says nothing a reader can use",
                            "set parity_tolerance to at most 0.2 (0.05 is the default); a record the wider "
                            "tolerance called parity then validates only with the status its evidence gives"))
    return settings.model_copy(update={"parity_tolerance": MAX_TOLERANCE})


def check_one(doc: Document, category: str, settings: Settings,
              store: ArtifactStore) -> tuple[DimensionRecord | None, list[Finding]]:
    """One dimension file's record and findings, for a rebuild where only it changed."""
    findings: list[Finding] = []
    model = _validate(doc, Dimension, findings)
    if model is None:
        return None, findings
    record = _checked(DimensionRecord(Path(doc.file).stem, category, doc, model), settings, store, store.place.today,
                      findings)
    return record, findings


def _checked(record: DimensionRecord, settings: Settings, store: ArtifactStore, today: date,
             findings: list[Finding]) -> DimensionRecord:
    """The record after its rules ran (findings appended), with its measurement and its review when it has them;
    ages and dates in the future are reckoned from today (the ledger's place's)."""
    return rules.check_dimension(record, settings, store, today, findings)


# --- schema errors as findings --------------------------------------------------------------

_EXPECTED = {"string_type": "text", "float_type": "number", "int_type": "whole number",
             "int_from_float": "whole number",
             "bool_type": "boolean", "list_type": "list", "dict_type": "mapping", "model_type": "mapping",
             "model_attributes_type": "mapping"}
UNION_TAGS = ("~text", "~link")


def _validate(doc: Document | None, model: type[Record], findings: list[Finding]):
    """The validated model of doc, or None after recording why not."""
    if doc is None or doc.data is None:
        return None
    try:
        return model.model_validate(doc.data)
    except pydantic_core.ValidationError as exc:
        for err in exc.errors(include_url=False):
            findings.append(schema_finding(doc, model, err))
        return None


def schema_finding(doc: Document, record: type[Record], err: ErrorDetails) -> Finding:
    """One pydantic error as a finding at the offending key or value."""
    from . import schemadef  # the fields' descriptions and types, for the hints: pydantic's models
    model: type[BaseModel] = getattr(schemadef, record.__name__)
    loc = _clean_loc(doc.data, err["loc"])
    kind = err["type"]
    name = _dotted(loc)
    value = err.get("input")
    if kind == "missing":
        pos = doc.pos(loc[:-1], key=True) if len(loc) > 1 else doc.pos(())
        desc = _field_description(model, loc)
        return finding("SC201", doc.file, pos, f"missing required field '{name}'",
                       f"add `{loc[-1]}:`" + (f" ({desc})" if desc else ""))
    if kind == "extra_forbidden":
        return finding("SC202", doc.file, doc.pos(loc, key=True), f"unknown field '{name}'", _unknown_hint(model, loc))
    pos = doc.pos(loc)
    if kind.startswith("SC"):
        return finding(kind, doc.file, pos, f"{name}: {err['msg']}" if name else err["msg"], _custom_hint(kind))
    if kind in _EXPECTED:
        expected = _EXPECTED[kind]
        if name.startswith("trace[") and expected == "mapping":
            expected = "path, URL, or {path:, label:} mapping"
        hint = "check the value's type"
        if expected == "text" and isinstance(value, (int, float, bool)):
            hint = "quote the value to make it text"
        elif expected in ("number", "whole number") and isinstance(value, str):
            hint = _number_hint(loc[-1] if loc else "", value)
        shown = kind_of(value) + (f" ({value!r})" if isinstance(value, (int, float, bool)) else "")
        return finding("SC203", doc.file, pos, f"'{name}' must be a {expected}, not {shown}", hint)
    if kind == "literal_error":
        allowed = err.get("ctx", {}).get("expected", "")
        options = [o.strip(" '") for o in allowed.replace(" or ", ", ").split(",")]
        near = close_matches(str(value), options, n=1, cutoff=0.5)
        hint = f"did you mean '{near[0]}'?" if near else f"use one of {allowed}"
        return finding("SC204", doc.file, pos, f"'{name}' is '{value}'; it must be one of {allowed}", hint)
    return finding("SC204", doc.file, pos, f"'{name}': {err['msg'][0].lower()}{err['msg'][1:]}",
                   "`scorecard schema` describes every field and the values it allows")


_CUSTOM_HINTS = {
    "SC205": "write the date as YYYY, YYYY-MM or YYYY-MM-DD, e.g. 2024-01",
    "SC206": "add `better: higher` (or lower) to the bar, and `unit:` next to a typed `value:`",
    "SC207": "keep claim to one line; put the detail in note:",
    "SC403": "use a full http:// or https:// URL",
    "SC601": "use the http(s) URL of the paper, post or page that states the bar",
    "SC204": "`scorecard schema` describes every field and the values it allows",
}

_PERCENT = lazy(r"\s*([-+]?(?:\d+\.?\d*|\.\d+))\s*%\s*")
_WITH_UNIT = lazy(r"\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*([^\d\s].*?)\s*")


def _number_hint(key: object, text: str) -> str:
    """What to write instead of text where a number belongs: the percent as a fraction, the unit apart."""
    percent = _PERCENT.fullmatch(text)
    if percent:
        return f"write the percentage as a fraction: `{key}: {float(percent[1]) / 100:g}`"
    with_unit = _WITH_UNIT.fullmatch(text)
    if with_unit:
        where = "`unit:` beside it" if key in ("value",) else "the field's unit (see the docs)"
        return f"write the number alone (`{key}: {with_unit[1]}`) and put the unit '{with_unit[2]}' in {where}"
    try:
        float(text)
    except ValueError:
        return f"write a number, e.g. `{key}: 10`"
    return "write the number without quotes"


def _custom_hint(code: str) -> str:
    return _CUSTOM_HINTS.get(code, "see docs/rules.md")


def _clean_loc(data: object, loc: tuple) -> tuple:
    """The error location as keys and indexes of the data, without pydantic's union member tags."""
    out: list = []
    node = data
    for i, part in enumerate(loc):
        if (isinstance(node, dict) and part in node
                or isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)):
            node = node[part]
        elif part in UNION_TAGS or (isinstance(part, str) and "[" in part and i < len(loc) - 1):
            continue  # a tag pydantic adds for a union member or a validator, not part of the data
        else:
            node = None  # a key that is not there: the missing field itself
        out.append(part)
    return tuple(out)


def _unknown_hint(model: type[BaseModel], loc: tuple) -> str:
    """What to do about an unknown key: the near spelling, the block it belongs in, or the keys known here."""
    known = _known_keys(model, loc)
    near = close_matches(str(loc[-1]), known, n=1, cutoff=0.6)
    if near:
        return f"did you mean '{near[0]}'?"
    homes = _homes(_model_at(model, loc[:-1]), str(loc[-1]))
    if homes:
        return f"'{loc[-1]}' belongs under {' or '.join('`' + h + ':`' for h in homes)}: indent it into that block"
    return "known fields here: " + ", ".join(known)


def _dotted(loc: tuple) -> str:
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _model_in(annotation) -> type[BaseModel] | None:
    from pydantic import BaseModel  # noqa: F811 - the hints' path only: a record with a schema error
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in typing.get_args(annotation):
        found = _model_in(arg)
        if found:
            return found
    return None


def _model_at(model: type[BaseModel], loc: tuple) -> type[BaseModel] | None:
    cls: type[BaseModel] | None = model
    for part in loc:
        if isinstance(part, int) or cls is None:
            continue
        field = cls.model_fields.get(part)
        cls = _model_in(field.annotation) if field else None
    return cls


def _homes(cls: type[BaseModel] | None, key: str) -> list[str]:
    """The fields of cls whose own record has a field named key (a key dedented out of its block)."""
    if cls is None:
        return []
    return [name for name, field in cls.model_fields.items()
            if (inner := _model_in(field.annotation)) is not None and key in inner.model_fields]


def _known_keys(model: type[BaseModel], loc: tuple) -> list[str]:
    cls = _model_at(model, loc[:-1])
    return sorted(cls.model_fields) if cls else []


def _field_description(model: type[BaseModel], loc: tuple) -> str:
    cls = _model_at(model, loc[:-1])
    field = cls.model_fields.get(loc[-1]) if cls else None
    return (field.description or "") if field else ""

