"""A ledger's own templates see data, not objects (issue 40 item 1a).

The promise: whatever a sandboxed template reads (an attribute, an item, a call's result, to any
depth), it holds only data (str, numbers, None, lists, tuples, dicts, Markup, dates), the context's
own records (read by field and property), or Jinja's runtime values; so no template can reach a
`pathlib.Path` (or any object with a method that reads or writes files) through the context.
"""

from __future__ import annotations

import shutil
from collections import deque
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jinja2 import StrictUndefined, TemplateError, Undefined
from jinja2.runtime import Macro

from scorecard.cli import pipeline
from scorecard.history.walk import walk
from scorecard.site.render import Site
from scorecard.site.resolve import attach_history, resolve_ledger
from scorecard.site.sandbox import RECORDS, is_data, is_method_of_data, record_fields

from conftest import run_cli
from gitrepo import scripted_history

DEPTH = 6


@pytest.fixture(scope="module")
def boxed(tmp_path_factory):
    """A sandboxed site over a ledger with a git history (every record kind the context holds), and a secret
    file beside the ledger."""
    tmp = tmp_path_factory.mktemp("boxed")
    root, _ = scripted_history(tmp / "ledger")
    (tmp / "secret.txt").write_text("the secret beside the ledger\n")
    result, store = pipeline.validate(root)
    resolved = resolve_ledger(result.ledger, store)
    attach_history(resolved, walk(result.ledger.place))
    return Site(resolved, sandboxed=True), tmp


def _names(value) -> list:
    """Every attribute and item a template could ask for of value."""
    names: list = [n for n in dir(value) if not n.startswith("__")]
    if isinstance(value, dict):
        names += [("item", k) for k in value]
    elif isinstance(value, (list, tuple)):
        names += [("item", i) for i in range(min(len(value), 3))]
    return names


def _reach(env, value, name):
    if isinstance(name, tuple):
        return env.getitem(value, name[1])
    return env.getattr(value, name)


def test_every_value_the_sandbox_lets_a_template_reach_is_data(boxed):
    site, _ = boxed
    env = site.env
    seen: set[int] = set()
    reached_types: set[type] = set()
    refused: set[str] = set()
    roots = {"ledger": site.ledger, **{k: env.globals[k] for k in ("glyphs", "statuses", "status_labels", "dims")}}
    roots.update({f"category={c.slug}": c for c in site.ledger.categories})  # the page contexts' own roots
    roots.update({f"d={d.id}": d for c in site.ledger.categories for d in c.dimensions})
    todo = deque((v, 0, k) for k, v in roots.items())
    while todo:
        value, depth, where = todo.popleft()
        if id(value) in seen or depth >= DEPTH:
            continue
        seen.add(id(value))
        for name in _names(value):
            got = _reach(env, value, name)
            if isinstance(got, Undefined):
                refused.add(f"{type(value).__name__}.{name}")
                continue
            path = f"{where}.{name}"
            assert is_data(got) or is_method_of_data(got) or isinstance(got, Macro), (path, type(got))
            if is_method_of_data(got):
                try:  # a method's result is checked when it is called: data, or the call is refused
                    result = env.call(env.from_string("").new_context(), got)
                except Exception:  # noqa: BLE001 - a method that needs arguments, or a refused result
                    continue
                assert is_data(result) or is_method_of_data(result), (path + "()", type(result))
                continue
            reached_types.add(type(got))
            todo.append((got, depth + 1, path))
    # the walk went where the records are, and the objects behind them were refused
    assert {"ResolvedDimension", "Measurement", "Comparison", "History", "Event", "Sota"} <= {
        t.__name__ for t in reached_types}
    assert {"ResolvedLedger.place", "DimensionRecord.doc", "Dimension.model_copy", "Dimension.model_dump"} <= refused


def test_a_record_shows_its_fields_and_properties_never_a_method():
    for cls in RECORDS:
        for name in record_fields(cls):
            assert not callable(getattr(cls, name, None)) or isinstance(getattr(cls, name, None), property), (cls, name)
        assert "place" not in record_fields(cls)


SECRET = "{{ ledger.place.root.parent.joinpath('secret.txt').read_text() }}"
ATTACKS = [
    SECRET,
    "{{ ledger['place'] }}",
    "{{ ledger.place }}",
    "{% for c in ledger.categories %}{{ c.record.doc }}{% endfor %}",
    "{{ ledger.categories[0].dimensions[0].record.model.model_copy() }}",
    "{{ ledger.categories[0].dimensions[0].record.model.model_dump() }}",
    "{{ ledger.as_of.today() }}",
    "{{ ledger.as_of.timetuple() }}",
    "{{ site.title.encode() }}",
    "{{ ledger }}",
    "{{ ledger.categories }}",
    "{{ ledger.categories[0]|attr('record')|attr('doc') }}",
    "{{ ledger.categories|map(attribute='record.doc')|list }}",
]


@pytest.mark.parametrize("template", ATTACKS)
def test_an_object_behind_the_context_is_refused(boxed, template):
    site, tmp = boxed
    with pytest.raises(TemplateError):
        site.env.from_string(template).render(site=site.site_context("", "index.html"), ledger=site.ledger)


def test_the_documented_context_still_renders(boxed):
    site, _ = boxed
    text = site.env.from_string(
        "{% for c in ledger.categories %}{{ c.slug }}:{% for d in c.dimensions %}{{ d.id }}={{ d.status }}"
        "{% if d.measured %} {{ fmt_value(d.measured.value, d.measured.unit) }} {{ d.measured.sources[0].evidence }}"
        "{% endif %};{% endfor %}{% endfor %}|{{ ledger.counts.values()|sum }}|{{ ledger.settings.title|upper }}"
        "|{{ ledger.history.events[0].subject }}|{{ ledger.as_of.year }}|{{ '%s-%s'|format('a', 1) }}"
        "|{{ ledger.categories[0].dimensions[0].record.model.sota.better }}"
        "|{{ ledger.categories[0].dimensions[0].record.file }}").render(
        site=site.site_context("", "index.html"), ledger=site.ledger)
    assert "core:alpha=parity 10.2 req/s evidence/run.json;gamma=no-claim;|2|" in text
    assert "|claims/core/alpha.yaml" in text and "|2026|a-1|" in text


def test_a_pull_requests_template_cannot_read_or_write_outside(tmp_path, base_ledger):
    (tmp_path / "secret.txt").write_text("the secret beside the ledger\n")
    (base_ledger / "templates").mkdir()
    (base_ledger / "templates/index.html").write_text(
        "{% extends 'base.html' %}{% block main %}" + SECRET
        + "{{ ledger.place.root.joinpath('planted').write_text('x') }}{% endblock %}\n")
    out = tmp_path / "out"
    proc = run_cli("build", "--root", str(base_ledger), "--out", str(out))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "SC701" in proc.stderr and "templates/index.html" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert not (base_ledger / "planted").exists()
    assert not out.exists() or not any("the secret" in p.read_text(errors="replace")
                                       for p in out.rglob("*") if p.is_file())


# --- the property: any chain of reads a template can write -------------------------------------------

VOCABULARY = sorted({
    "place", "root", "parent", "joinpath", "read_text", "write_text", "unlink", "doc", "raw", "model", "record",
    "categories", "dimensions", "measured", "measurement", "sources", "comparison", "history", "events", "head",
    "settings", "files", "citations", "counts", "bar_of", "bar", "review", "sota", "result", "inputs", "meta",
    "summary", "model_copy", "model_dump", "model_fields", "model_config", "model_validate", "model_construct",
    "today", "fromtimestamp", "timetuple", "encode", "items", "values", "keys", "get", "__class__", "mro",
    "__self__", "__func__", "__globals__", "func_globals", "gi_frame", "f_back", "real", "stays_inside", "path",
    "of", "dimensions_", "when", "points", "commits", "as_of", "title", "value", "unit", "evidence", "traces",
})
SEGMENT = st.one_of(
    st.sampled_from(VOCABULARY).map(lambda n: "." + n),
    st.sampled_from(VOCABULARY).map(lambda n: f"[{n!r}]"),
    st.integers(0, 2).map(lambda i: f"[{i}]"),
    st.just("()"),
    st.just("|attr('place')"),
    st.just("|first"),
    st.just("|list"),
)


@settings(max_examples=400, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(start=st.sampled_from(["ledger", "site", "glyphs", "dims", "status_labels"]),
       chain=st.lists(SEGMENT, min_size=1, max_size=DEPTH))
def test_no_chain_of_reads_reaches_an_object(boxed, start, chain):
    site, tmp = boxed
    held: list = []
    expr = start + "".join(chain)
    try:
        site.env.from_string("{{ probe(" + expr + ") }}").render(
            site=site.site_context("", "index.html"), ledger=site.ledger,
            probe=lambda v: held.append(v) or "")
    except (TemplateError, TypeError, ValueError, KeyError, IndexError, AttributeError):
        return  # refused, or not a valid read of that value
    for value in held:
        assert is_data(value) or is_method_of_data(value) or isinstance(value, Macro), (expr, type(value))
        assert not isinstance(value, Path)
    assert not (tmp / "planted").exists()


def test_the_theme_renders_sandboxed_with_history(boxed):
    site, _ = boxed
    pages = site.render()
    assert "changes.html" in pages and "core/index.html" in pages


def test_the_built_in_theme_keeps_its_objects(base_ledger):
    result, store = pipeline.validate(base_ledger)
    site = Site(resolve_ledger(result.ledger, store), sandboxed=False)
    assert site.env.from_string("{{ ledger.place.root.name }}").render(ledger=site.ledger) == "ledger"
    assert StrictUndefined is site.env.undefined
    shutil.rmtree(base_ledger)


def test_a_records_text_does_not_say_where_the_ledger_is(boxed):
    site, tmp = boxed
    text = site.env.from_string("{{ ledger ~ '' }}{{ '%s' % (ledger,) }}{{ ledger.categories|string }}").render(
        ledger=site.ledger)
    assert "core" in text and str(tmp) not in text and "LedgerPlace" not in text


# --- found by the hostile pass: text of a record, and errors that were internal errors --------------------------

PRINTS = ["{{ ledger|string }}", "{{ ledger|pprint }}", "{{ '%s'|format(ledger) }}", "{{ '%r' % (ledger,) }}",
          "{{ '{0}'.format(ledger) }}", "{{ ledger ~ '' }}", "{{ [ledger]|join(',') }}",
          "{{ ledger.categories[0].dimensions[0].record|string }}"]


@pytest.mark.parametrize("template", PRINTS)
def test_a_records_text_holds_only_what_a_template_may_read(boxed, template):
    site, tmp = boxed
    text = site.env.from_string(template).render(ledger=site.ledger)
    assert text and "Document(" not in text and "b'" not in text and 'b"' not in text and str(tmp) not in text


ERRORS = ["{{ 1/0 }}", "{{ 'a' + 1 }}", "{{ '%d' % 'x' }}", "{{ [1, 'a']|sort }}", "{{ [1, 2]|sum(start='a') }}",
          "{{ 'x'|wordwrap(0) }}", "{{ ledger|tojson }}", "{{ '{}'.format_map({'a': 1}) }}",
          "{{ history_chart(none) }}", "{{ fmt_value('x') }}", "{{ bullet_chart(1, 2) }}", "{{ prose(1) }}",
          "{{ review_counts(1) }}", "{{ file_href(1, 2) }}"]


@pytest.mark.parametrize("template", ERRORS)
def test_any_error_of_a_ledgers_template_is_a_finding_at_its_line(tmp_path, base_ledger, template):
    (base_ledger / "templates").mkdir()
    (base_ledger / "templates/index.html").write_text(
        "{% extends 'base.html' %}{% block main %}\n\n" + template + "{% endblock %}\n")
    proc = run_cli("build", "--root", str(base_ledger), "--out", str(tmp_path / "out"))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "templates/index.html:3:1: error SC701" in proc.stderr, proc.stderr
    assert "internal error" not in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("template, env, said", [
    ("{{ ('x' * 1200000000)|length }}", {"SCORECARD_TEMPLATE_MEMORY_MB": "300"}, "ran past the memory limit (300 MiB)"),
    ("{% for i in 'x' * 100000 %}{% for j in 'x' * 100000 %}{% endfor %}{% endfor %}",
     {"SCORECARD_TEMPLATE_CPU_SECONDS": "2"}, "ran past the CPU-time limit (2 s)"),
])
def test_a_ledgers_templates_render_under_memory_and_cpu_limits(base_ledger, template, env, said):
    """Issue 40 item 1b: a template took 1.2 GB, or looped until the job's timeout. A ledger's own templates render
    in a child process under RLIMIT_AS and RLIMIT_CPU: past either, SC701, the last good site untouched."""
    import time

    from conftest import run_cli

    assert run_cli("build", cwd=base_ledger).returncode == 0
    before = (base_ledger / "site/index.html").read_bytes()
    (base_ledger / "templates").mkdir()
    (base_ledger / "templates/category.html").write_text(template)
    started = time.monotonic()
    proc = run_cli("build", cwd=base_ledger, env=env)
    assert proc.returncode == 1 and "SC701" in proc.stderr and said in proc.stderr, proc.stderr
    assert "internal error" not in proc.stderr and time.monotonic() - started < 60
    assert (base_ledger / "site/index.html").read_bytes() == before
