"""``analyze_source`` raises nothing but ``AnalysisError`` (one line) on any input."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zerograd_guard.lint.analyze import analyze_source
from zerograd_guard.lint.errors import AnalysisError
from zerograd_guard.lint.options import AnalysisOptions
from zerograd_guard.lint.prefilter import may_contain_backward


def nested_ifs(depth: int) -> str:
    lines = [f"{'    ' * level}if x{level}:" for level in range(depth)]
    lines.append(f"{'    ' * depth}loss.backward()")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    "source",
    ["", "\n", "# only a comment\n", "   \n\n# c\n", '"""doc"""\n', "pass", "\ufeffx = 1\n"],
)
def test_trivial_sources_have_no_findings(source: str) -> None:
    assert analyze_source(source) == []


@pytest.mark.parametrize("depth", [50, 99])
def test_moderate_nesting_is_analysed(depth: int) -> None:
    assert analyze_source(nested_ifs(depth)) == []


@pytest.mark.parametrize("depth", [150, 250, 1000])
def test_deep_nesting_is_a_clean_error(depth: int) -> None:
    with pytest.raises(AnalysisError) as raised:
        analyze_source(nested_ifs(depth))
    assert "\n" not in str(raised.value)


def test_deeply_nested_expressions_are_a_clean_error_or_analysed() -> None:
    source = "x = " + "(" * 300 + "loss.backward()" + ")" * 300 + "\n"
    try:
        analyze_source(source)
    except AnalysisError as error:
        assert "\n" not in str(error)


@pytest.mark.parametrize(
    ("source", "start"),
    [
        ("for x in y\n    pass\n", "syntax error at 2:"),
        ("def f(:\n", "syntax error at "),
        ("x = 1\n  y = 2\n", "syntax error at 2:"),
        ("a = '\x00'\n", ""),
    ],
)
def test_bad_source_is_a_one_line_error(source: str, start: str) -> None:
    try:
        analyze_source(source)
    except AnalysisError as error:
        assert str(error).startswith(start) and "\n" not in str(error)


def test_lambda_heavy_code() -> None:
    source = (
        "f = lambda: (lambda: (lambda: loss.backward())())()\n"
        "for b in loader:\n"
        "    g = [lambda p=p: p.grad.zero_() for p in params]\n"
        "    h = (lambda: opt.step())\n"
        "    k = {i: (lambda: model(b).backward()) for i in range(3)}\n"
        "    list(map(lambda o: o.step(), [opt]))\n"
    )
    assert analyze_source(source) == []


def test_recursive_functions_are_analysed() -> None:
    source = (
        "def a(b):\n    loss(b).backward()\n    a(b)\n    opt.step()\n"
        "def c(b):\n    d(b)\ndef d(b):\n    c(b)\n"
        "for b in loader:\n    a(b)\n    c(b)\n"
    )
    assert all(f.code == "ZG101" for f in analyze_source(source))


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.text(
        alphabet=st.sampled_from(list("forin:()\n .=\t#'\"backward_step()zeroif1")), max_size=80
    )
)
def test_arbitrary_text_never_raises_anything_else(text: str) -> None:
    try:
        analyze_source(text)
    except AnalysisError as error:
        assert "\n" not in str(error)


def test_prefilter() -> None:
    assert may_contain_backward("loss.backward()", AnalysisOptions())
    assert may_contain_backward("self.manual_backward(l)", AnalysisOptions())
    assert not may_contain_backward("optimizer.step()\n", AnalysisOptions())
    options = AnalysisOptions(extra_backward_calls=frozenset({"my_bwd"}))
    assert may_contain_backward("trainer.my_bwd(l)", options)
    assert not may_contain_backward("trainer.my_bwd(l)", AnalysisOptions())


def test_extra_call_names_from_options() -> None:
    options = AnalysisOptions(
        extra_backward_calls=frozenset({"backprop"}),
        extra_step_calls=frozenset({"apply_update"}),
        extra_clear_calls=frozenset({"wipe"}),
    )
    leaky = "for b in loader:\n    trainer.backprop(b)\n    trainer.apply_update()\n"
    clean = (
        "for b in loader:\n    wipe(model)\n    trainer.backprop(b)\n    trainer.apply_update()\n"
    )
    assert [(f.line, f.code) for f in analyze_source(leaky, options)] == [(2, "ZG101")]
    assert analyze_source(clean, options) == []
    assert analyze_source(leaky) == []


def test_managed_engine_steps_clear() -> None:
    options = AnalysisOptions(managed_engines=frozenset({"InHouseTrainer"}))
    source = "t = InHouseTrainer(model)\nfor b in loader:\n    loss(b).backward()\n    t.step()\n"
    assert analyze_source(source, options) == []


def test_analysis_never_imports_torch() -> None:
    code = (
        "import sys; sys.modules['torch'] = None\n"
        "from zerograd_guard.lint.analyze import analyze_source\n"
        "r = analyze_source('for b in l:\\n    x.backward()\\n    opt.step()\\n')\n"
        "assert [f.code for f in r] == ['ZG101'], r\n"
        "assert 'torch' not in [m for m in sys.modules if sys.modules[m] is not None]\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_plugin_rule_receives_the_model() -> None:
    from zerograd_guard.lint.model import EventKind
    from zerograd_guard.lint.rules.base import Rule

    class CountSteps(Rule):
        code = "ZX001"

        def check(self, model):
            for function in model.model.functions:
                for statement in function.body:
                    if getattr(statement, "kind", None) == EventKind.STEP:
                        yield model.finding(self.code, "a step", statement.node)

    findings = analyze_source("x.backward()\nopt.step()\n", rules=[CountSteps])
    assert [(f.code, f.line, f.column, f.end_column) for f in findings] == [("ZX001", 2, 1, 11)]
