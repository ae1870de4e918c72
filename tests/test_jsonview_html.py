"""site/jsonview.lines_html writes the evidence viewer's lines exactly as the loop evidence.html had written them."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from jinja2 import Environment, StrictUndefined

from scorecard.site.jsonview import FOLD_OVER, json_lines, lines_html

# The loop as evidence.html had it (before issue 46's fourth session), in the theme's environment settings.
LOOP = """<div class="json" tabindex="0" role="region" aria-label="{{ rel }}">
{%- for line in lines %}
{%- if "fold" in line %}
<details class="fold"><summary>{{ line.text }}<span class="fold-count">… {{ "{:,}".format(line.fold) }} numbers, folded (open to show them)</span></summary>
{%- elif "fold_end" in line %}
</details>
{%- else %}
<div class="line{% if line.cited_by %} cited{% endif %}"{% if line.id %} id="{{ line.id }}"{% endif %}>{{ line.text }}{% if line.say %}   <span class="cite">← {{ line.pointer }}, cited by {% for i in line.cited_by %}<a href="{{ site.base }}{{ dims[i].url if i in dims else '' }}">{{ i }}</a>{{ ", " if not loop.last }}{% endfor %}</span>{% endif %}{% if line.cited_by %}<span class="crumb" aria-hidden="true">{{ rel }} › <code>{{ line.path }}</code>{% if line.entry %} in the entry “{{ line.entry }}”{% endif %}</span>{% endif %}</div>
{%- endif %}
{%- endfor %}
</div>
"""  # noqa: E501
NOW = """<div class="json" tabindex="0" role="region" aria-label="{{ rel }}">
{{- json_lines_html(lines, rel, site.base, dims) -}}
</div>
"""
ENV = Environment(autoescape=True, undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                  keep_trailing_newline=True)
ENV.globals["json_lines_html"] = lines_html

TEXT = st.text(alphabet=st.sampled_from(list("ab <>&\"'“’é\u2028 {}[],:$/~")), max_size=6)
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=False), TEXT)
JSON = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.lists(st.integers(0, 9), min_size=FOLD_OVER + 1, max_size=FOLD_OVER + 3),  # folded
    st.dictionaries(st.one_of(TEXT, st.sampled_from(["name", "test", "a b", "~1", "/"])), inner, max_size=4)),
    max_leaves=25)


def _pointers(value, pointer=""):
    yield pointer
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _pointers(v, f"{pointer}/{k.replace('~', '~0').replace('/', '~1')}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _pointers(v, f"{pointer}/{i}")


@settings(max_examples=300, deadline=None)
@given(JSON, st.data(), TEXT, st.sampled_from(["", "../", "../../"]))
def test_the_lines_are_written_as_the_templates_loop_wrote_them(data, draw, rel, base):
    pointers = list(_pointers(data))
    cited = draw.draw(st.dictionaries(st.sampled_from(pointers),
                                      st.lists(st.sampled_from(["alpha", "beta", "<gamma>", "gone"]), min_size=1,
                                               max_size=3, unique=True), max_size=4))
    dims = {"alpha": {"title": "A", "url": "core/index.html#alpha"}, "beta": {"title": "B", "url": "x/index.html#b&c"},
            "<gamma>": {"title": "G", "url": "q/index.html#<g>"}}
    lines = json_lines(json.loads(json.dumps(data)), cited)
    context = {"lines": lines, "rel": rel, "site": {"base": base}, "dims": dims}
    assert ENV.from_string(NOW).render(**context) == ENV.from_string(LOOP).render(**context)


def test_a_folded_array_an_unknown_dimension_and_an_entry_are_written_alike():
    data = {"benchmarks": [{"name": "<fast>", "times": list(range(FOLD_OVER + 5))}], "x": 'a"b'}
    cited = {"/benchmarks/0/times": ["alpha", "gone"], "/x": ["<gamma>"], "/benchmarks/0/times/3": ["alpha"]}
    dims = {"alpha": {"title": "A", "url": "core/index.html#alpha"}}
    context = {"lines": json_lines(data, cited), "rel": "evidence/<r>.json", "site": {"base": "../../"}, "dims": dims}
    now = ENV.from_string(NOW).render(**context)
    assert now == ENV.from_string(LOOP).render(**context)
    assert '<details class="fold"><summary>' in now and "55 numbers, folded" in now and "</details>" in now
    assert '<a href="../../">gone</a>' in now and "in the entry “&lt;fast&gt;”" in now and "&lt;gamma&gt;" in now
