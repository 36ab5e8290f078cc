"""fastai: callbacks and ``Learner`` overrides judged inside the batch fastai runs around
them (``HookedIteration``): flagged and accepted examples, the import deciding."""

from __future__ import annotations

import textwrap

import pytest

from zerograd_guard.lint.analyze import analyze_source
from zerograd_guard.lint.cli import main
from zerograd_guard.lint.plugins.manager import builtin_options
from zerograd_guard.lint.testing import expected

OPTIONS = builtin_options()

# name -> source with `# expect: CODE` marks (none: must stay silent)
FLAGGED = {
    "clear_in_after_backward": """\
        from fastai.callback.core import Callback

        class ClearTooEarly(Callback):
            def after_backward(self):
                self.learn.opt.zero_grad()  # expect: ZG102
        """,
    "clear_in_before_step_through_the_forwarded_opt": """\
        from fastai.vision.all import *

        class Clipper(Callback):
            def before_step(self):
                self.opt.zero_grad()  # expect: ZG102
        """,
    "model_clear_in_before_step": """\
        import fastai.callback.core as fc

        class ResetModel(fc.Callback):
            def before_step(self):
                self.model.zero_grad()  # expect: ZG102
        """,
    "clear_in_a_subclass_of_an_in_file_callback": """\
        from fastai.basics import *

        class Base(Callback):
            def wipe(self):
                self.learn.model.zero_grad()  # expect: ZG102

        class Mine(Base):
            def after_backward(self):
                self.wipe()
        """,
    "learner_do_grad_opt_without_clear": """\
        from fastai.learner import Learner

        class MyLearner(Learner):
            def _do_grad_opt(self):
                self.loss_grad.backward()  # expect: ZG101
                self.opt.step()
        """,
    "learner_step_override_clearing_first": """\
        from fastai.learner import Learner

        class MyLearner(Learner):
            def _step(self):
                self.opt.zero_grad()
                self.opt.step()  # expect: ZG102
        """,
}

ACCEPTED = {
    "fit_one_cycle": """\
        from fastai.vision.all import *

        dls = ImageDataLoaders.from_folder(path)
        learn = vision_learner(dls, resnet34, metrics=error_rate)
        learn.fit_one_cycle(4)
        """,
    "gradient_accumulation": """\
        from fastai.vision.all import *

        class GradientAccumulation(Callback):
            order, run_valid = MixedPrecision.order - 4, False

            def __init__(self, n_acc=32):
                store_attr()

            def before_fit(self):
                self.count = 0

            def after_loss(self):
                self.learn.loss_grad /= self.n_acc / find_bs(self.learn.yb)

            def before_step(self):
                self.learn.loss_grad *= self.n_acc / find_bs(self.learn.yb)
                self.count += find_bs(self.learn.yb)
                if self.count < self.n_acc:
                    raise CancelBatchException()  # skip step/zero_grad
                else:
                    self.count = 0
        """,
    "gradient_clip": """\
        from fastai.callback.core import Callback
        from torch import nn

        class GradientClip(Callback):
            def __init__(self, max_norm=1.0, norm_type=2.0):
                store_attr()

            def before_step(self):
                nn.utils.clip_grad_norm_(self.parameters(), self.max_norm, self.norm_type)
        """,
    "reads_gradients": """\
        from fastai.callback.core import Callback

        class GradNorms(Callback):
            def after_backward(self):
                self.norms = [p.grad.norm() for p in self.learn.model.parameters()]
        """,
    "skip_a_nan_batch_clearing_itself": """\
        from fastai.callback.core import Callback, CancelBatchException, CancelStepException

        class SkipNaN(Callback):
            def after_backward(self):
                if not self.learn.loss_grad.isfinite():
                    self.learn.opt.zero_grad()
                    raise CancelBatchException()

            def before_step(self):
                if self.skip:
                    self.opt.zero_grad()
                    raise CancelStepException()
        """,
    "clear_before_the_backward_or_after_the_step": """\
        from fastai.callback.core import Callback

        class ExtraClears(Callback):
            def before_backward(self):
                self.learn.opt.zero_grad()

            def after_step(self):
                self.opt.zero_grad()

            def after_batch(self):
                self.model.zero_grad()
        """,
    "extra_backward_on_another_loss": """\
        from fastai.callback.core import Callback

        class AuxLoss(Callback):
            def after_loss(self):
                aux = self.learn.model.aux_loss(self.learn.pred)
                aux.backward(retain_graph=True)

            def before_backward(self):
                self.learn.model.reg_loss().backward()
        """,
    "own_optimizer_cleared_before_its_backward": """\
        from fastai.callback.core import Callback
        from torch.optim import Adam

        class Critic(Callback):
            def before_fit(self):
                self.critic_opt = Adam(self.critic.parameters())

            def after_loss(self):
                self.critic_opt.zero_grad()
                self.critic(self.learn.pred.detach()).mean().backward()
                self.critic_opt.step()
        """,
    "shadowed_model_is_the_callbacks_own": """\
        from fastai.callback.core import Callback

        class Teacher(Callback):
            def __init__(self, teacher):
                self.model = teacher

            def after_backward(self):
                self.model.zero_grad()
        """,
    "not_fastais_callback": """\
        from my_lib.callbacks import Callback

        class ClearTooEarly(Callback):
            def after_backward(self):
                self.learn.opt.zero_grad()
        """,
    "star_import_of_another_library_last": """\
        from fastai.vision.all import *
        from my_lib import *

        class ClearTooEarly(Callback):
            def after_backward(self):
                self.learn.opt.zero_grad()
        """,
    "star_import_of_a_module_without_callback": """\
        from fastai.torch_core import *

        class ClearTooEarly(Callback):
            def after_backward(self):
                self.learn.opt.zero_grad()
        """,
    "learner_overrides_that_clear": """\
        from fastai.learner import Learner

        class MyLearner(Learner):
            def _do_grad_opt(self):
                self.loss_grad.backward()
                self.opt.step()
                self.opt.zero_grad()

            def _backward(self):
                self.loss_grad.backward()
        """,
    "mixed_precision_fake_optimizer": """\
        from fastai.callback.core import Callback, CancelStepException

        class MixedPrecision(Callback):
            order = 10

            def before_backward(self):
                self.learn.loss_grad = self.scaler.scale(self.loss_grad)

            def before_step(self):
                self.skipped = True
                self.scaler.step(self)
                if self.skipped:
                    raise CancelStepException()
                self.scales.append(self.scaler.get_scale())

            def after_step(self):
                self.learn.scaler.update()

            @property
            def param_groups(self):
                return self.opt.param_groups

            def step(self, *args, **kwargs):
                self.skipped = False
        """,
}


def _found(source: str) -> list[tuple[int, str]]:
    return [(finding.line, finding.code) for finding in analyze_source(source, OPTIONS)]


@pytest.mark.parametrize("name", sorted(FLAGGED))
def test_flagged(name):
    source = textwrap.dedent(FLAGGED[name])
    assert expected(source)
    assert _found(source) == expected(source)


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_accepted(name):
    assert _found(textwrap.dedent(ACCEPTED[name])) == []


def test_the_message_says_fastai_runs_the_backward_and_step_around_the_callback():
    source = textwrap.dedent(FLAGGED["clear_in_after_backward"])
    (finding,) = analyze_source(source, OPTIONS)
    assert "fastai's `Learner`" in finding.message
    assert "`after_backward`" in finding.message
    assert "`before_step`" in finding.message
    assert finding.fix is None  # fastai's step is not in the file: nothing to move


def test_without_the_builtin_plugins_callbacks_are_not_judged():
    assert analyze_source(textwrap.dedent(FLAGGED["clear_in_after_backward"])) == []


def test_from_the_command_line_with_and_without_the_fast_path(tmp_path, monkeypatch, capsys):
    for name, source in {**FLAGGED, **ACCEPTED}.items():
        (tmp_path / f"{name}.py").write_text(textwrap.dedent(source))
    monkeypatch.chdir(tmp_path)
    outputs = []
    for flags in ([], ["--no-fast-path"], ["--no-project"], ["--no-project", "--no-fast-path"]):
        main(["--no-cache", "--no-plugins", "-j", "1", "--exit-zero", *flags, "."])
        outputs.append(capsys.readouterr().out)
    assert len(set(outputs)) == 1, outputs
    for name, source in FLAGGED.items():
        for line, code in expected(textwrap.dedent(source)):
            assert f"{name}.py:{line}:" in outputs[0] and code in outputs[0]


@pytest.mark.parametrize("name", sorted({**FLAGGED, **ACCEPTED}))
def test_the_fast_path_split_however_small_finds_the_same(name):
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parents[1] / "fastpath"))
    from fastpath_helpers import fast_path, whole_file

    source = textwrap.dedent({**FLAGGED, **ACCEPTED}[name])
    assert fast_path(source, OPTIONS) == whole_file(source, OPTIONS)


def test_a_callback_file_is_analysed_even_without_a_visible_clear():
    """A hook that clears nothing still records what the framework's step sees (a
    callback calling the file's stepping helper changes other findings), and a clear can
    be spelled so that no marker sees it (``(p.  # note`` then ``grad) = None``): a file
    naming the framework's package and class is analysed, by both paths alike."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parents[1] / "fastpath"))
    from fastpath_helpers import fast_path, whole_file

    from zerograd_guard.lint.prefilter import may_call_backward, may_contain_backward

    for name in ("gradient_accumulation", "gradient_clip", "mixed_precision_fake_optimizer"):
        source = textwrap.dedent(ACCEPTED[name]).replace("zero_grad", "")
        assert may_call_backward(source, OPTIONS) and may_contain_backward(source, OPTIONS)
        assert fast_path(source, OPTIONS) == whole_file(source, OPTIONS), name
    clearing = textwrap.dedent(FLAGGED["clear_in_after_backward"])
    assert may_call_backward(clearing, OPTIONS) and may_contain_backward(clearing, OPTIONS)
    assert not may_call_backward(clearing.replace("fastai", "my_lib"), OPTIONS)


def test_star_imports_are_kept_in_order_in_the_module_model():
    import libcst as cst

    from zerograd_guard.lint.extract import build_model

    source = "from fastai.vision.all import *\nfrom . import *\nfrom my_lib import *\n"
    model = build_model(cst.parse_module(source), OPTIONS)
    assert model.star_imports == ["fastai.vision.all", "my_lib"]
    assert "*" not in model.imports


def test_a_class_whose_hook_calls_a_helper_that_cancels_is_not_judged():
    # the engine takes a helper's raise for its return: the batch would go on to the
    # step the raise skips (here on the gradients the helper cleared): unknown, silent
    source = textwrap.dedent(
        """\
        from fastai.callback.core import Callback, CancelStepException

        class SkipViaHelper(Callback):
            def skip(self):
                self.opt.zero_grad()
                raise CancelStepException()

            def before_step(self):
                self.skip()
        """
    )
    assert _found(source) == []
    assert _found(source.replace("raise CancelStepException()", "pass")) == [(5, "ZG102")]


def test_the_plugins_page_example_builds_a_hooked_iteration():
    import re
    from pathlib import Path

    from zerograd_guard.lint.options import HookedIteration

    page = (Path(__file__).parents[3] / "docs" / "plugins.md").read_text(encoding="utf-8")
    (block,) = [b for b in re.findall(r"```python\n(.*?)```", page, re.S) if "Hooked" in b]
    namespace: dict[str, object] = {}
    exec(block.replace("\nHookedIteration(", "\nspec = HookedIteration(", 1), namespace)
    assert isinstance(namespace["spec"], HookedIteration)
