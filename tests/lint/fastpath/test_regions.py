"""Which top-level statements the fast path keeps, channel by channel (see ``regions``).

Each test checks both what is kept (so a test fails if the fast path stops skipping, or
skips what can matter) and that the findings equal the whole-file analysis.
"""

from __future__ import annotations

import textwrap

from fastpath_helpers import fast_path, kept_lines, whole_file

from zerograd_guard.lint.options import AnalysisOptions
from zerograd_guard.lint.regions import analysed_text

LOOP = """\
def train(loader):
    for batch in loader:
        loss = model(batch)
        loss.backward()
        opt.step()
"""


def _same(text: str) -> None:
    assert fast_path(text) == whole_file(text)


def test_unrelated_statements_are_blanked_with_offsets_kept() -> None:
    text = (
        "import torch\n\nTABLE = [make(i) for i in range(3)]\n\n"
        + LOOP
        + ("\n\ndef unrelated(x):\n    return x + 1\n")
    )
    reduced = analysed_text(text, AnalysisOptions(), min_chars=0)
    assert reduced is not None and len(reduced) == len(text)
    assert reduced.count("\n") == text.count("\n")
    assert "TABLE" not in reduced and "unrelated" not in reduced
    assert LOOP in reduced
    # the loop never names torch, but which framework a file trains with is decided from
    # all of its imports (regions' channel 7), so a framework import is always kept
    assert "import torch" in reduced
    findings = fast_path(text)
    assert findings and findings == whole_file(text)


def test_backward_only_in_strings_and_definitions_parses_nothing() -> None:
    text = textwrap.dedent(
        '''\
        """Call ``loss.backward()`` before ``optimizer.step()``."""


        class Square(torch.autograd.Function):
            def backward(ctx, grad):
                return 2 * grad
        '''
    )
    assert analysed_text(text, AnalysisOptions(), min_chars=0) is None
    assert whole_file(text) == []


def test_a_helper_that_clears_is_kept() -> None:
    text = "def reset(o):\n    o.zero_grad()\n\n\n" + LOOP.replace(
        "        loss = model", "        reset(opt)\n        loss = model"
    )
    assert any("def reset" in line for line in kept_lines(text))
    assert whole_file(text) == []  # the helper's clear is seen: no finding
    _same(text)


def test_a_helper_that_calls_a_helper_that_clears_is_kept() -> None:
    text = "def inner(o):\n    o.zero_grad()\n\n\ndef outer(o):\n    inner(o)\n\n\n" + LOOP.replace(
        "        loss = model", "        outer(opt)\n        loss = model"
    )
    lines = kept_lines(text)
    assert any("def inner" in line for line in lines) and any("def outer" in line for line in lines)
    _same(text)


def test_a_loop_calling_a_step_function_elsewhere_is_kept() -> None:
    text = textwrap.dedent(
        """\
        def train_step(batch):
            loss = model(batch)
            loss.backward()
            opt.step()


        def fit(loader):
            for batch in loader:
                train_step(batch)
        """
    )
    assert any("def fit" in line for line in kept_lines(text))
    findings = fast_path(text)
    assert findings and findings == whole_file(text)


def test_a_module_level_optimizer_and_a_factory_are_kept() -> None:
    text = "opt = build_optimizer(model)\n\n\n" + LOOP.replace("opt", "self_opt")
    text = "self_opt = torch.optim.SGD(model.parameters())\n" + text
    lines = kept_lines(text)
    assert any("build_optimizer" in line for line in lines)
    assert any("torch.optim.SGD" in line for line in lines)
    _same(text)


def test_module_body_statements_run_together_when_the_module_body_observes() -> None:
    text = textwrap.dedent(
        """\
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for batch in loader:
            model(batch).backward()
            opt.step()
        print("done")
        zero_all = 3
        """
    )
    lines = kept_lines(text)
    assert 'print("done")' in lines and "zero_all = 3" in lines
    _same(text)


def test_module_body_is_not_kept_when_it_cannot_observe() -> None:
    text = LOOP + "\n\nprint('unrelated')\n"
    assert "print('unrelated')" not in kept_lines(text)
    _same(text)


def test_classes_defining_a_used_method_name_are_kept() -> None:
    text = textwrap.dedent(
        """\
        class Wrapper:
            def advance(self):
                self.inner.zero_grad()


        def train(loader, thing):
            for batch in loader:
                model(batch).backward()
                thing.advance()
                opt.step()
        """
    )
    assert any("class Wrapper" in line for line in kept_lines(text))
    _same(text)


def test_a_function_importing_a_name_the_loop_uses_is_kept() -> None:
    text = "def setup():\n    from torch.optim import SGD as Maker\n\n\n" + LOOP
    text = text.replace("        opt.step()", "        Maker(model).step()")
    assert any("SGD as Maker" in line for line in kept_lines(text))
    _same(text)


def test_statements_sharing_a_line_are_kept_together() -> None:
    text = "unrelated = 1; other = 2\n" + LOOP + "x = 1; print(x)\n"
    _same(text)


def test_decorators_are_blanked_with_their_function() -> None:
    text = LOOP + "\n\n@decorate(\n    1,\n)\ndef unrelated():\n    return 2\n"
    reduced = analysed_text(text, AnalysisOptions(), min_chars=0)
    assert reduced is not None and "decorate" not in reduced
    _same(text)


def test_files_ast_cannot_parse_are_analysed_whole() -> None:
    text = LOOP + "\ndef broken(:\n"
    assert analysed_text(text, AnalysisOptions(), min_chars=0) == text
    assert isinstance(fast_path(text), str) and fast_path(text) == whole_file(text)


def test_lone_carriage_returns_are_analysed_whole() -> None:
    text = LOOP.replace("\n", "\r") + "\rdef unrelated():\r    return 1\r"
    assert analysed_text(text, AnalysisOptions(), min_chars=0) == text


def test_small_files_are_analysed_whole() -> None:
    text = LOOP + "\n\ndef unrelated(x):\n    return x + 1\n"
    assert analysed_text(text, AnalysisOptions()) == text
    padded = text + "\n\n" + "".join(f"def f{i}():\n    return {i}\n\n\n" for i in range(900))
    reduced = analysed_text(padded, AnalysisOptions())
    assert reduced is not None and "unrelated" not in reduced and LOOP in reduced
