"""Condition keys: the same condition however it is spaced, different conditions apart."""

from __future__ import annotations

import libcst as cst
import pytest

from zerograd_guard.lint.extract.names import expression_text


def _text(code: str) -> str:
    return expression_text(cst.parse_expression(code), lambda node: "fallback")


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("a>0", "a > 0"),
        ("step % args.log_every == 0", "(step %  args.log_every)==0"),
        ("not self.cfg.use_amp", "not  self.cfg.use_amp"),
        ("torch.isfinite(loss).all()", "torch.isfinite( loss ).all( )"),
        ("f(x, *rest, key=1, **kw)", "f(x,*rest,key = 1,**kw)"),
    ],
)
def test_spacing_does_not_matter(first: str, second: str) -> None:
    assert _text(first) == _text(second)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("a > 0", "a >= 0"),
        ("a and b or c", "a and (b or c)"),
        ("a - b - c", "a - (b - c)"),
        ("f(x=1)", "f(1)"),
        ("f(*x)", "f(**x)"),
        ("not a", "a"),
        ("a.b", "a_b"),
    ],
)
def test_different_conditions_differ(first: str, second: str) -> None:
    assert _text(first) != _text(second)


def test_other_shapes_use_the_fallback() -> None:
    assert _text("x[0] > 1") == "(<fallback> GreaterThan 1)"
