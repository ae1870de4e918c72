"""site/trusted.py: the built-in theme's environment renders exactly what Jinja's own does, only faster."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jinja2 import DictLoader, Environment, StrictUndefined, pass_context, pass_environment, pass_eval_context
from markupsafe import Markup, escape

from scorecard.site.trusted import TrustedEnvironment, _escape, speed_up


class Plain:
    def __call__(self, x):
        return f"<plain {x}>"


class AsksContext:
    @pass_context
    def __call__(self, context, x):
        return f"ctx:{context['who']}:{x}"


@pass_context
def with_context(context, x):
    return f"{context.get('who')}/{x}<b>"


@pass_environment
def with_environment(env, x):
    return f"{type(env).__mro__[-2].__name__}:{env.autoescape}:{x}"


@pass_eval_context
def with_eval_context(ctx, x):
    return Markup(f"<i>{ctx.autoescape}</i>") + str(x)


def stops(x):
    raise StopIteration


GLOBALS = {"plain": lambda x: f"<{x}>", "obj": Plain(), "asks": AsksContext(), "wc": with_context,
           "we": with_environment, "wev": with_eval_context, "stops": stops, "up": str.upper, "marked": Markup,
           "fmt": "{0}-{1}".format}

TEMPLATES = {
    "macros.html": '{% macro tag(s, cls="x") %}<span class="{{ cls }}">{{ s }}</span>{% endmacro %}'
                   '{% macro wrap() %}[{{ caller() }}]{% endmacro %}',
    "page.html": '{% from "macros.html" import tag, wrap %}{% set who = "me & you" %}'
                 '{{ plain(v) }}|{{ obj(v) }}|{{ asks(v) }}|{{ wc(v) }}|{{ we(v) }}|{{ wev(v) }}|{{ up(v ~ "") }}|'
                 '{{ marked(v) }}|{{ fmt(v, 2) }}|{{ tag(v) }}|{{ tag(v, cls=v) }}|'
                 '{% call wrap() %}{{ tag(v) }}{% endcall %}|'
                 '{% for i in [1, 2] %}{{ wc(i) }}{{ tag(i ~ v) }}{% endfor %}|{{ stops(v) is undefined }}|'
                 '{{ v | e }}{{ v | safe }}',
}


def _render(kind: type[Environment], value) -> str:
    env = kind(loader=DictLoader(TEMPLATES), autoescape=True, undefined=StrictUndefined)
    env.globals.update(GLOBALS)
    page = env.get_template("page.html")
    for name in TEMPLATES:
        speed_up(env.get_template(name))
    return page.render(v=value, who="outer")


@given(st.one_of(st.text(), st.integers(), st.text().map(Markup)))
def test_a_page_renders_as_jinjas_own_environment_renders_it(value):
    assert _render(TrustedEnvironment, value) == _render(Environment, value)


def test_the_calls_that_ask_for_a_context_get_it():
    page = _render(TrustedEnvironment, "<a>")
    assert "ctx:me &amp; you:&lt;a&gt;" in page  # a callable object whose __call__ asks for the context
    assert "me &amp; you/&lt;a&gt;&lt;b&gt;" in page and "TrustedEnvironment" not in page
    assert "Environment:True:&lt;a&gt;" in page and "<i>True</i>&lt;a&gt;" in page
    assert page.endswith("|True|&lt;a&gt;<a>")  # StopIteration: undefined, as Jinja answers it


@given(st.one_of(st.text(), st.integers(), st.floats(allow_nan=False), st.none(), st.text().map(Markup)))
def test_escape_gives_what_markupsafe_gives(value):
    got = _escape(value)
    assert type(got) is Markup and got == escape(value)


def test_a_markup_string_is_given_back_as_it_is_and_anything_else_escaped():
    kept = Markup("<b>x</b>")
    assert _escape(kept) is kept

    class Sub(Markup):
        pass

    class Html:
        def __html__(self):
            return "<em>ok</em>"

    assert type(_escape(Sub("<b>"))) is Markup and _escape(Html()) == Markup("<em>ok</em>")
    assert _escape("<b>") == "&lt;b&gt;"


def test_only_the_trusted_environments_templates_are_changed():
    env = Environment(loader=DictLoader(TEMPLATES), autoescape=True)
    template = env.get_template("page.html")
    speed_up(template)
    assert template.root_render_func.__globals__["escape"] is escape
    trusted = TrustedEnvironment(loader=DictLoader(TEMPLATES), autoescape=True)
    template = trusted.get_template("page.html")
    speed_up(template)
    assert template.root_render_func.__globals__["escape"] is _escape


@pytest.mark.parametrize("sandboxed", [False, True])
def test_the_site_renders_trusted_only_without_templates_of_the_ledgers_own(base_ledger, sandboxed):
    from scorecard.cli import pipeline
    from scorecard.site.render import Site
    from scorecard.site.resolve import resolve_ledger

    result, store = pipeline.validate(base_ledger)
    site = Site(resolve_ledger(result.ledger, store), sandboxed=sandboxed)
    site.preload()
    assert isinstance(site.env, TrustedEnvironment) is not sandboxed
    namespace = site.env.get_template("category.html").root_render_func.__globals__
    assert (namespace["escape"] is _escape) is not sandboxed
