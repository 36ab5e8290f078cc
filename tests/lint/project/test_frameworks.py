"""Frameworks that drive the step: built-in plugins, flagged and accepted examples."""

from __future__ import annotations

import textwrap

import pytest

from zerograd_guard.lint.analyze import analyze_source
from zerograd_guard.lint.cli import main
from zerograd_guard.lint.plugins.frameworks import BUILTIN_PLUGINS
from zerograd_guard.lint.plugins.manager import builtin_options
from zerograd_guard.lint.testing import expected

OPTIONS = builtin_options()

# (name, flagged source with `# expect:` marks, accepted source)
EXAMPLES = {
    "ignite_engine": (
        """\
        from ignite.engine import Engine

        def update(engine, batch):
            x, y = batch
            loss = criterion(model(x), y)
            loss.backward()  # expect: ZG101
            optimizer.step()
            return loss.item()

        trainer = Engine(update)
        """,
        """\
        from ignite.engine import Engine

        def update(engine, batch):
            optimizer.zero_grad()
            x, y = batch
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
            return loss.item()

        trainer = Engine(update)
        """,
    ),
    "ignite_accumulation_window": (
        """\
        import ignite.engine as ie

        def create_trainer(model, optimizer, k):
            def _update(engine, batch):
                if engine.state.iteration % 10 == 0:
                    optimizer.zero_grad()
                loss = model(batch)
                loss.backward()  # expect: ZG101
                optimizer.step()
            return ie.Engine(_update)
        """,
        """\
        import ignite.engine as ie

        def create_trainer(model, optimizer, k):
            def _update(engine, batch):
                if (engine.state.iteration - 1) % k == 0:
                    optimizer.zero_grad()
                loss = model(batch) / k
                loss.backward()
                if engine.state.iteration % k == 0:
                    optimizer.step()
            return ie.Engine(_update)
        """,
    ),
    # the process function a factory makes, handed to the engine at once or only typed
    # by its signature and passed on through variables (pfnet's alaska2 solution)
    "ignite_engine_factory": (
        """\
        from ignite.engine import Engine

        def get_update_fn(model, optimizer, loss_fn):
            def _update(engine, batch):
                x, y = batch
                loss = loss_fn(model(x), y)
                loss.backward()  # expect: ZG101
                optimizer.step()
                return loss.item()

            return _update

        trainer = Engine(get_update_fn(model, optimizer, criterion))
        """,
        """\
        from ignite.engine import Engine

        def get_update_fn(model, optimizer, loss_fn):
            def _update(engine, batch):
                optimizer.zero_grad()
                x, y = batch
                loss = loss_fn(model(x), y)
                loss.backward()
                optimizer.step()
                return loss.item()

            return _update

        trainer = Engine(get_update_fn(model, optimizer, criterion))
        """,
    ),
    "ignite_engine_annotated": (
        """\
        from ignite.engine import Engine

        def make_update(model, optimizer, loss_fn):
            def _update(engine: Engine, batch):
                loss = loss_fn(model(batch[0]), batch[1])
                loss.backward()  # expect: ZG101
                optimizer.step()

            return _update
        """,
        """\
        from ignite.engine import Engine

        def make_update(model, optimizer, loss_fn):
            def _update(engine: Engine, batch):
                optimizer.zero_grad()
                loss = loss_fn(model(batch[0]), batch[1])
                loss.backward()
                optimizer.step()

            return _update
        """,
    ),
    "transformers_trainer": (
        """\
        from transformers import Trainer

        class MyTrainer(Trainer):
            def training_step(self, model, inputs, num_items_in_batch=None):
                loss = self.compute_loss(model, inputs)
                loss.backward()
                self.optimizer.zero_grad()
                self.optimizer.step()  # expect: ZG102
                return loss.detach()
        """,
        """\
        import transformers

        class MyTrainer(transformers.Trainer):
            def training_step(self, model, inputs, num_items_in_batch=None):
                model.train()
                loss = self.compute_loss(model, inputs)
                self.accelerator.backward(loss)
                return loss.detach()

            def compute_loss(self, model, inputs, return_outputs=False, **kwargs):
                outputs = model(**inputs)
                return outputs.loss
        """,
    ),
    "detectron2_run_step": (
        """\
        from detectron2.engine import SimpleTrainer

        class MyTrainer(SimpleTrainer):
            def run_step(self):
                data = next(self._data_loader_iter)
                losses = sum(self.model(data).values())
                losses.backward()  # expect: ZG101
                self.optimizer.step()
        """,
        """\
        from detectron2.engine import AMPTrainer

        class MyTrainer(AMPTrainer):
            def run_step(self):
                data = next(self._data_loader_iter)
                losses = sum(self.model(data).values())
                self.optimizer.zero_grad()
                self.grad_scaler.scale(losses).backward()
                self.grad_scaler.step(self.optimizer)
                self.grad_scaler.update()
        """,
    ),
    "fairseq_task": (
        """\
        from fairseq.tasks import FairseqTask

        class MyTask(FairseqTask):
            def train_step(self, sample, model, criterion, optimizer, update_num, ignore_grad):
                loss, size, log = criterion(model, sample)
                optimizer.backward(loss)
                optimizer.zero_grad()
                optimizer.step()  # expect: ZG102
                return loss, size, log
        """,
        """\
        from fairseq.tasks import FairseqTask

        class MyTask(FairseqTask):
            def train_step(self, sample, model, criterion, optimizer, update_num, ignore_grad):
                model.train()
                loss, size, log = criterion(model, sample)
                if ignore_grad:
                    loss *= 0
                optimizer.backward(loss)
                return loss, size, log
        """,
    ),
    "mmengine_train_step": (
        """\
        from mmengine.model import BaseModel

        class MyModel(BaseModel):
            def train_step(self, data, optim_wrapper):
                losses = self(**data, mode="loss")
                loss, log_vars = self.parse_losses(losses)
                optim_wrapper.backward(loss)  # expect: ZG101
                optim_wrapper.step()
                return log_vars
        """,
        """\
        from mmengine.model import BaseModel

        class MyModel(BaseModel):
            def train_step(self, data, optim_wrapper):
                with optim_wrapper.optim_context(self):
                    losses = self(**data, mode="loss")
                loss, log_vars = self.parse_losses(losses)
                optim_wrapper.update_params(loss)
                return log_vars
        """,
    ),
    "deepspeed_engine": (
        """\
        import deepspeed

        engine, optimizer, _, _ = deepspeed.initialize(model=model, model_parameters=params)
        for batch in loader:
            loss = engine(batch)
            loss.backward()  # expect: ZG101
            optimizer.step()
        """,
        """\
        import deepspeed

        engine, optimizer, _, _ = deepspeed.initialize(model=model, model_parameters=params)
        for batch in loader:
            loss = engine(batch)
            engine.backward(loss)
            engine.step()
        """,
    ),
}


def _found(source: str) -> list[tuple[int, str]]:
    return [(finding.line, finding.code) for finding in analyze_source(source, OPTIONS)]


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_flagged_example(name):
    source = textwrap.dedent(EXAMPLES[name][0])
    assert _found(source) == expected(source)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_accepted_example(name):
    assert _found(textwrap.dedent(EXAMPLES[name][1])) == []


def test_without_the_framework_plugins_the_driven_functions_are_not_judged():
    source = textwrap.dedent(EXAMPLES["ignite_engine"][0])
    assert analyze_source(source) == []


def test_same_names_from_another_package_are_not_frameworks():
    source = textwrap.dedent(EXAMPLES["detectron2_run_step"][0]).replace(
        "from detectron2.engine", "from my_lib.engine"
    )
    assert _found(source) == []


def test_builtin_plugins_use_the_public_hooks():
    for plugin in BUILTIN_PLUGINS:
        hooks = [name for name in dir(plugin) if name.startswith("zerograd_guard_")]
        assert hooks, plugin.__name__


def test_framework_plugins_apply_from_the_command_line(tmp_path, monkeypatch, capsys):
    (tmp_path / "train.py").write_text(textwrap.dedent(EXAMPLES["ignite_engine"][0]))
    monkeypatch.chdir(tmp_path)
    assert main(["--no-cache", "--no-plugins", "-j", "1", "train.py"]) == 1
    assert "train.py:6:5: ZG101" in capsys.readouterr().out
