"""The built-in theme's Jinja environment: the same templates and the same bytes, fewer steps per expression.

A page of the built-in theme is some 70 calls (macros, the views' functions) and 200 escapes per dimension, and
Jinja's general machinery around each was a tenth of rendering a category (issue 46, fourth session):

- `Context.call` looks, for every call, for a context, an evaluation context or an environment the callable
  asks for (`pass_context` and its kin), on the callable and on its `__call__`. A plain function, method or macro
  that asks for none is called directly here; any other callable goes Jinja's way.
- `escape` made a new Markup string of a value that was one already (a macro's output, a rendered Markdown field):
  the compiled templates' own `escape` gives such a value back as it is (it is immutable) and escapes the rest as
  markupsafe does.

Only the built-in theme, trusted code, renders here; a ledger's own templates render in the sandbox (sandbox.py),
whose calls Jinja checks one by one.
"""

from __future__ import annotations

import types
from typing import Any

from jinja2 import Environment, Template
from jinja2.runtime import Context, Macro
from markupsafe import Markup, escape

_PLAIN = frozenset({types.FunctionType, types.BuiltinFunctionType, types.MethodType, Macro})


class TrustedContext(Context):
    """Jinja's context, calling a plain callable that asks for no context directly."""

    def call(__self, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805 - Jinja's own signature
        if type(__obj) not in _PLAIN or hasattr(__obj, "jinja_pass_arg"):
            return Context.call(__self, __obj, *args, **kwargs)
        kwargs.pop("_block_vars", None)
        kwargs.pop("_loop_vars", None)
        try:
            return __obj(*args, **kwargs)
        except StopIteration:  # as Jinja answers it
            return __self.environment.undefined("value was undefined because a callable raised a StopIteration "
                                                "exception")


class TrustedEnvironment(Environment):
    """The built-in theme's environment."""

    context_class = TrustedContext


def _escape(value: Any) -> Markup:
    """markupsafe.escape, giving a Markup string back as it is."""
    return value if type(value) is Markup else escape(value)


def speed_up(template: Template) -> None:
    """Let a compiled template of the trusted environment escape with _escape (its module's globals: root, blocks
    and macros alike); a template of any other environment (the sandbox's) is left as it is."""
    namespace = template.root_render_func.__globals__
    if isinstance(template.environment, TrustedEnvironment) and namespace.get("escape") is escape:
        namespace["escape"] = _escape
