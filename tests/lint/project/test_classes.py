"""Classes of other modules: their methods run in place when a loop calls them."""

from __future__ import annotations

import textwrap

from project_helpers import codes

GAN = """\
    import torch


    class GAN:
        def __init__(self, generator, discriminator):
            self.generator = generator
            self.discriminator = discriminator
            self.opt_g = torch.optim.Adam(generator.parameters())
            self.opt_d = torch.optim.Adam(discriminator.parameters())

        def step(self, real):
            self.opt_d.zero_grad()
            d_loss(self.discriminator, self.generator, real).backward()
            self.opt_d.step()
            g_loss(self.discriminator, self.generator).backward()
            self.opt_g.step()
    """
GAN_LOOP = """\
    from models.gan import GAN

    gan = GAN(make_generator(), make_discriminator())
    for real in loader:
        gan.step(real)
    """


def test_gan_step_of_another_module_without_generator_clear(findings):
    found = findings(files={"models/__init__.py": "", "models/gan.py": GAN, "train.py": GAN_LOOP})
    assert codes(found) == [("train.py", 5, "ZG101")]
    assert "`gan.opt_g` already applied at models/gan.py:16" in found[0][3]


def test_gan_step_that_clears_both(findings):
    gan = GAN.replace("        g_loss(", "        self.opt_g.zero_grad()\n            g_loss(")
    assert (
        findings(files={"models/__init__.py": "", "models/gan.py": gan, "train.py": GAN_LOOP}) == []
    )


TRAINER_BASE = """\
    import torch


    class BaseTrainer:
        def __init__(self, model):
            self.model = model
            self.optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

        def update(self, loss):
            loss.backward()
            self.optimizer.step()
    """
SUBCLASS_LOOP = """\
    from base import BaseTrainer


    class Trainer(BaseTrainer):
        def fit(self, loader):
            for x, y in loader:
                self.update(self.model(x).sum())


    Trainer(model).fit(loader)
    """


def test_method_inherited_from_a_base_class_of_another_module(findings):
    found = findings(files={"base.py": TRAINER_BASE, "trainer.py": SUBCLASS_LOOP})
    assert codes(found) == [("trainer.py", 7, "ZG101")]


def test_inherited_method_that_clears(findings):
    base = TRAINER_BASE.replace(
        "        self.optimizer.step()",
        "        self.optimizer.step()\n            self.optimizer.zero_grad()",
    )
    assert findings(files={"base.py": base, "trainer.py": SUBCLASS_LOOP}) == []


# p-christ/Deep-Reinforcement-Learning-Algorithms-with-PyTorch: every agent inherits one
# optimisation helper, which loops over the networks to clip them, and calls it from a
# learning method its episode loop calls
AGENT_BASE = """\
    import torch


    class Base_Agent(object):
        def take_optimisation_step(self, optimizer, network, loss, clipping_norm=None):
            if not isinstance(network, list): network = [network]
            optimizer.zero_grad()
            loss.backward()
            if clipping_norm is not None:
                for net in network:
                    torch.nn.utils.clip_grad_norm_(net.parameters(), clipping_norm)
            optimizer.step()
    """
DQN_AGENT = """\
    import torch
    from agents.Base_Agent import Base_Agent


    class DQN(Base_Agent):
        def __init__(self, config):
            self.q_network = make_network(config)
            self.q_optimizer = torch.optim.Adam(self.q_network.parameters())

        def step(self):
            while not self.done:
                self.conduct_action(self.pick_action())
                if self.time_to_learn():
                    self.learn()

        def learn(self):
            loss = self.compute_loss(self.sample_experiences())
            self.take_optimisation_step(self.q_optimizer, self.q_network, loss, 5.0)
    """
AGENT_TREE = {"pyproject.toml": "", "agents/Base_Agent.py": AGENT_BASE}


UNCLEARED_BASE = AGENT_BASE.replace("            optimizer.zero_grad()\n", "")


def test_an_inherited_helper_with_a_loop_of_its_own_is_judged_at_the_callers_loop(findings):
    # its own loop (over the networks) runs inside one optimisation step: the iteration
    # that repeats the step is the caller's
    agent = DQN_AGENT.replace(
        "                if self.time_to_learn():\n                    self.learn()",
        "                loss = self.compute_loss(self.sample_experiences())\n"
        "                self.take_optimisation_step(self.q_optimizer, self.q_network, loss)",
    )
    found = findings(
        files={**AGENT_TREE, "agents/Base_Agent.py": UNCLEARED_BASE, "agents/dqn/DQN.py": agent}
    )
    assert codes(found) == [("agents/dqn/DQN.py", 14, "ZG101")]


def test_an_inherited_helper_called_from_a_method_the_loop_calls(findings):
    found = findings(
        files={**AGENT_TREE, "agents/Base_Agent.py": UNCLEARED_BASE, "agents/dqn/DQN.py": DQN_AGENT}
    )
    assert codes(found) == [("agents/dqn/DQN.py", 18, "ZG101")]
    assert "Base_Agent.py:7" in found[0][3]


def test_an_inherited_helper_that_clears_is_correct(findings):
    assert findings(files={**AGENT_TREE, "agents/dqn/DQN.py": DQN_AGENT}) == []


DEEPSPEED_STRATEGY = """\
    import deepspeed


    class DeepSpeedStrategy:
        def __init__(self, model, optimizer):
            self.engine, self.optimizer, _, _ = deepspeed.initialize(
                model=model, optimizer=optimizer
            )

        def backward(self, loss):
            self.engine.backward(loss)

        def optimizer_step(self, optimizer):
            self.engine.step()
    """
DEEPSPEED_LOOP = """\
    import torch
    from strategies import DeepSpeedStrategy

    optimizer = torch.optim.AdamW(model.parameters())
    strategy = DeepSpeedStrategy(model, optimizer)
    for batch in loader:
        loss = model(batch)
        strategy.backward(loss)
        strategy.optimizer_step(optimizer)
    """


def test_deepspeed_wrapper_whose_step_clears_is_not_a_zg101(findings):
    # per file the strategy's ``optimizer_step(optimizer)`` is unknown (only torch_xla's
    # is a plain step; reading it as one was a false ZG101 here and in OpenRLHF)
    files = {"strategies.py": DEEPSPEED_STRATEGY, "train.py": DEEPSPEED_LOOP}
    assert findings("--no-project", files=files) == []
    assert findings() == []


AGENT = """\
    import torch


    class Agent:
        def __init__(self, net):
            self.net = net
            self.optim = torch.optim.Adam(net.parameters())

        def update(self, batch):
            loss = self.net(batch).mean()
            loss.backward()
            self.optim.step()
    """
AGENT_LOOP = """\
    from agents import Agent


    def main(loader, net):
        agent = Agent(net)
        for batch in loader:
            agent.update(batch)
    """
AGENT_ATTRIBUTE_LOOP = """\
    from agents import Agent


    class Runner:
        def __init__(self, net):
            self.agent = Agent(net)

        def run(self, loader):
            for batch in loader:
                self.agent.update(batch)
    """


def test_a_method_of_an_imported_class_called_on_its_instance_in_a_loop(findings):
    # from a held-out review (SAC, BCQ, DQN agents): a method not named like a step
    # (``agent.update``) on an instance of a class of another module was dropped by the
    # walker, so the agent's missing clear was never seen
    found = findings(files={"agents.py": AGENT, "main.py": AGENT_LOOP})
    assert codes(found) == [("main.py", 7, "ZG101")]
    assert "in `Agent.update`, called at line 7" in found[0][3]


def test_a_method_of_an_imported_class_called_on_an_attribute_in_a_loop(findings):
    found = findings(files={"agents.py": AGENT, "runner.py": AGENT_ATTRIBUTE_LOOP})
    assert codes(found) == [("runner.py", 10, "ZG101")]


def test_a_method_of_an_imported_class_that_clears_is_not_a_finding(findings):
    clear_first = "            self.optim.zero_grad()\n            loss.backward()"
    fixed = AGENT.replace("            loss.backward()", clear_first)
    assert findings(files={"agents.py": fixed, "main.py": AGENT_LOOP}) == []
    assert findings(files={"runner.py": AGENT_ATTRIBUTE_LOOP}) == []


def test_a_class_built_through_its_module_outside_the_loop_is_followed(findings):
    # sfujim/BCQ's main.py: ``import DDPG``, ``policy = DDPG.DDPG(...)`` before the loop,
    # ``policy.train(...)`` in it; the index only saw module chains inside loops
    loop = """\
        import agents


        def main(loader, net):
            policy = agents.Agent(net)
            for batch in loader:
                policy.update(batch)
        """
    found = findings(files={"agents.py": AGENT, "main.py": loop})
    assert codes(found) == [("main.py", 7, "ZG101")]


SCALER = """\
    class NativeScaler:
        def __call__(self, loss, optimizer, clear=False):
            if clear:
                optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    """


def test_a_called_instance_runs_its_call_method(findings):
    # facebookresearch/mae's ``loss_scaler(loss, optimizer)``: the backward and the step
    # are in ``NativeScaler.__call__`` of another module
    loop = """\
        import torch
        from util.misc import NativeScaler

        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        loss_scaler = NativeScaler()
        for x in loader:
            loss_scaler(model(x), optimizer)
        """
    found = findings(files={"util/misc.py": SCALER, "main.py": loop})
    assert codes(found) == [("main.py", 7, "ZG101")]
    assert "in `NativeScaler.__call__`" in found[0][3]
    fixed = loop.replace("optimizer)\n", "optimizer, clear=True)\n")
    assert findings(files={"util/misc.py": SCALER, "main.py": fixed}) == []


TRAINER = """\
    import torch
    from torch import nn


    class Trainer(nn.Module):
        def __init__(self, model):
            super().__init__()
            self.model = model
            self.optimizer = torch.optim.Adam(model.parameters())

        def forward(self, x):
            loss = self.model(x)
            loss.backward()
            return loss.item()

        def update(self):
            self.optimizer.step()
    """


def test_a_called_module_runs_its_forward(findings):
    # lucidrains/DALLE2-pytorch: ``trainer(x)`` runs ``Trainer.forward``, which backwards
    loop = """\
        from trainer import Trainer

        trainer = Trainer(model)
        for x in loader:
            trainer(x)
            trainer.update()
        """
    found = findings(files={"trainer.py": TRAINER, "train.py": loop})
    assert codes(found) == [("train.py", 5, "ZG101")]
    assert "in `Trainer.forward`" in found[0][3]
    fixed = TRAINER.replace(
        "self.optimizer.step()", "self.optimizer.step()\n            self.optimizer.zero_grad()"
    )
    assert findings(files={"trainer.py": fixed, "train.py": loop}) == []


def test_a_parameter_annotated_with_a_class_of_the_run_holds_an_instance(findings):
    # mae's ``train_one_epoch(..., loss_scaler)`` in engine_pretrain.py: annotated, the
    # parameter's methods are that class's
    scaler = SCALER.replace("def __call__(", "def apply(")
    engine = """\
        from util.misc import NativeScaler


        def train_one_epoch(model, loader, optimizer, scaler: NativeScaler):
            for x in loader:
                scaler.apply(model(x), optimizer)
        """
    found = findings(files={"util/misc.py": scaler, "engine.py": engine})
    assert codes(found) == [("engine.py", 6, "ZG101")]
    fixed = engine.replace("optimizer)\n", "optimizer, clear=True)\n")
    assert findings(files={"util/misc.py": scaler, "engine.py": fixed}) == []


# kengz/SLM-Lab: the network's train_step (backward and step) is defined on a base class
# in one module; the loop builds a subclass imported from another
NET_BASE = """\
    class Net:
        def train_step(self, loss, optim):
            loss.backward()
            optim.step()
            return loss
    """
MLP_NET = """\
    import torch.nn as nn
    from pkg.base import Net


    class MLPNet(Net, nn.Module):
        def __init__(self):
            nn.Module.__init__(self)
            self.fc = nn.Linear(2, 2)
    """
NET_LOOP = """\
    import torch
    from pkg.mlp import MLPNet


    def train(batches):
        net = MLPNet()
        optim = torch.optim.Adam(net.parameters())
        for b in batches:
            loss = net(b).mean()
            net.train_step(loss, optim)
    """


def test_a_method_of_a_base_in_a_third_module_called_on_an_imported_subclass(findings):
    files = {"pkg/__init__.py": "", "pkg/mlp.py": MLP_NET, "pkg/algo.py": NET_LOOP}
    found = findings(files={**files, "pkg/base.py": NET_BASE})
    assert codes(found) == [("pkg/algo.py", 10, "ZG101")]
    cleared = NET_BASE.replace(
        "            loss.backward()", "            optim.zero_grad()\n            loss.backward()"
    )
    assert findings(files={**files, "pkg/base.py": cleared}) == []


MIXED_PRECISION = """\
    class MixedPrecisionTrainer:
        def __init__(self, model):
            self.model_params = list(model.parameters())

        def backward(self, loss):
            loss.backward()

        def optimize(self, opt):
            opt.step()
    """
OVERRIDDEN_RUN_STEP = """\
    import torch

    from fp16_util import MixedPrecisionTrainer


    class TrainLoop:
        def __init__(self, model):
            self.model = model
            self.mp_trainer = MixedPrecisionTrainer(model)
            self.opt = torch.optim.Adam(model.parameters())

        def run_step(self, x):
            self.forward_backward(x)
            self.mp_trainer.optimize(self.opt)


    class CMTrainLoop(TrainLoop):
        def run_loop(self, loader):
            for x in loader:
                self.run_step(x)

        def run_step(self, x):
            self.forward_backward(x)
            self.mp_trainer.optimize(self.opt)

        def forward_backward(self, x):
            self.mp_trainer.backward(self.model(x).pow(2).mean())
    """


def test_the_step_is_placed_at_the_call_that_applied_the_gradients(findings):
    # from a held-out probe (openai/consistency_models, ``cm/train_util.py``): the
    # overridden base ``run_step`` reaches the helper's step first (judged on its own,
    # it observes nothing), so the message said "called at line 14", a call that never
    # runs for ``CMTrainLoop``; the gradients are applied again through line 24
    found = findings(files={"fp16_util.py": MIXED_PRECISION, "train_util.py": OVERRIDDEN_RUN_STEP})
    assert codes(found) == [("train_util.py", 27, "ZG101")]
    assert "in `MixedPrecisionTrainer.optimize`, called at line 24)" in found[0][3]


# kzl/decision-transformer: the base trainer's loop (another module) calls
# ``self.train_step()``, which each subclass overrides in its own module
LOOPING_BASE = """\
    import torch


    class Trainer:
        def __init__(self, model, optimizer):
            self.model = model
            self.optimizer = optimizer

        def train_iteration(self, num_steps):
            for _ in range(num_steps):
                self.train_step()

        def train_step(self):
            self.optimizer.zero_grad()
            self.model(torch.randn(8, 4)).pow(2).mean().backward()
            self.optimizer.step()
    """
OVERRIDING_SUBCLASS = """\
    import torch
    from trainer import Trainer


    class ActTrainer(Trainer):
        def train_step(self):
            loss = self.model(torch.randn(8, 4)).abs().mean()
            loss.backward()
            self.optimizer.step()


    def main(model):
        optimizer = torch.optim.AdamW(model.parameters())
        trainer = ActTrainer(model=model, optimizer=optimizer)
        trainer.train_iteration(num_steps=100)
    """


def test_an_inherited_loop_of_another_module_runs_the_subclass_override(findings):
    found = findings(files={"trainer.py": LOOPING_BASE, "act_trainer.py": OVERRIDING_SUBCLASS})
    assert codes(found) == [("act_trainer.py", 8, "ZG101")]


def test_an_override_that_clears_under_an_inherited_loop_of_another_module(findings):
    cleared = OVERRIDING_SUBCLASS.replace(
        "            loss.backward()",
        "            self.optimizer.zero_grad()\n            loss.backward()",
    )
    assert findings(files={"trainer.py": LOOPING_BASE, "act_trainer.py": cleared}) == []


def test_a_long_base_class_of_another_module_is_read(findings):
    # speechbrain's ``Brain`` is about 53,000 characters: a framework's own trainer class,
    # read like any other (a definition is left unknown above 64,000 characters)
    padding = "".join(
        f"\n    def helper_{index}(self, value):\n        return value * {index} + {index}\n"
        for index in range(600)
    )
    long_base = LOOPING_BASE + textwrap.indent(padding, "    ")
    assert 24_000 < len(long_base) < 64_000
    found = findings(files={"trainer.py": long_base, "act_trainer.py": OVERRIDING_SUBCLASS})
    assert codes(found) == [("act_trainer.py", 8, "ZG101")]


EXPERIMENT = """\
    import torch
    from act_trainer import ActTrainer


    def experiment(model, iterations):
        optimizer = torch.optim.AdamW(model.parameters())
        trainer = ActTrainer(model=model, optimizer=optimizer)
        for it in range(iterations):
            trainer.train_iteration(num_steps=100)
    """


def test_a_script_calling_an_inherited_loop_that_runs_an_override_is_analysed(findings):
    # decision-transformer's experiment.py: its loop calls ``train_iteration``, which
    # has no backward of its own but calls the subclass's ``self.train_step()``
    subclass = OVERRIDING_SUBCLASS.split("\n\n\n    def main")[0] + "\n"
    files = {"trainer.py": LOOPING_BASE, "act_trainer.py": subclass, "experiment.py": EXPERIMENT}
    # the override is judged under the inherited loop in its own module too
    assert codes(findings(files=files)) == [
        ("act_trainer.py", 8, "ZG101"),
        ("experiment.py", 9, "ZG101"),
    ]


TRAINER_MODULE = """\
    import torch
    from torch import nn


    class FasterRCNNTrainer(nn.Module):
        def __init__(self, faster_rcnn):
            super().__init__()
            self.faster_rcnn = faster_rcnn
            self.optimizer = torch.optim.SGD(self.faster_rcnn.parameters(), lr=0.1)

        def train_step(self, imgs):
            loss = self.faster_rcnn(imgs).sum()
            loss.backward()
            self.optimizer.step()
            return loss
    """


def test_trainer_of_another_module_built_and_moved(findings):
    """``Trainer(net).cuda()`` is the trainer itself (simple-faster-rcnn-pytorch's
    ``train.py``): its ``train_step`` runs every batch, and clears nothing."""
    for moved in (".cuda()", ".to('cuda')", ".train()"):
        loop = f"""\
    from trainer import FasterRCNNTrainer


    def train(faster_rcnn, dataloader):
        trainer = FasterRCNNTrainer(faster_rcnn){moved}
        for img in dataloader:
            trainer.train_step(img)
    """
        found = findings(files={"trainer.py": TRAINER_MODULE, "train.py": loop})
        assert codes(found) == [("train.py", 7, "ZG101")], moved


# reczoo/FuxiCTR: the base model's epoch loop (another module) calls ``self.train_step``,
# which a model of the zoo overrides with gradient accumulation; no file of the run
# calls ``fit`` (a script builds the model by name)
BASE_MODEL = """\
    import torch
    from torch import nn


    class BaseModel(nn.Module):
        def compile(self, lr):
            self.optimizer = torch.optim.Adam(self.parameters(), lr=lr)

        def train_step(self, batch):
            self.optimizer.zero_grad()
            loss = self.forward(batch).sum()
            loss.backward()
            self.optimizer.step()
            return loss

        def train_epoch(self, data):
            for batch_index, batch in enumerate(data):
                self._batch_index = batch_index
                self.train_step(batch)

        def fit(self, data, epochs=1):
            for epoch in range(epochs):
                self.train_epoch(data)
    """
ZOO_MODEL = """\
    from torch import nn
    from pkg import BaseModel


    class Net(BaseModel):
        def __init__(self, accumulation_steps=1):
            super().__init__()
            self.lin = nn.Linear(4, 1)
            self.accumulation_steps = accumulation_steps

        def forward(self, x):
            return self.lin(x)

        def train_step(self, batch):
            loss = self.forward(batch).sum() / self.accumulation_steps
            loss.backward()
            if (self._batch_index + 1) % self.accumulation_steps == 0:
                self.optimizer.step()
                self.optimizer.zero_grad()
            return loss
    """


def _zoo(train_step: str) -> dict[str, str]:
    return {
        "pkg/__init__.py": "from pkg.base import BaseModel\n",
        "pkg/base.py": BASE_MODEL,
        "zoo/model.py": train_step,
    }


def test_an_override_an_uncalled_inherited_loop_of_another_module_runs(findings):
    unclear = ZOO_MODEL.replace("                self.optimizer.zero_grad()\n", "")
    found = findings(files=_zoo(unclear))
    assert codes(found) == [("zoo/model.py", 16, "ZG101")]


def test_an_override_that_clears_under_an_uncalled_inherited_loop(findings):
    assert findings(files=_zoo(ZOO_MODEL)) == []


def test_an_inherited_loop_whose_own_method_only_raises(findings):
    # KaiyangZhou/CoOp over Dassl: ``TrainerX.run_epoch`` calls ``self.forward_backward``,
    # which the base only declares; the base class itself touches no gradient
    base = """\
    class TrainerX:
        def forward_backward(self, batch):
            raise NotImplementedError

        def run_epoch(self):
            for self.batch_idx, batch in enumerate(self.loader):
                self.forward_backward(batch)
    """
    trainer = """\
    import torch
    from dassl.trainer import TrainerX


    class CoCoOp(TrainerX):
        def build_model(self):
            self.model = torch.nn.Linear(4, 2)
            self.optim = torch.optim.SGD(self.model.parameters(), lr=0.1)

        def forward_backward(self, batch):
            image, label = batch
            loss = torch.nn.functional.cross_entropy(self.model(image), label)
            loss.backward()
            self.optim.step()
    """
    files = {"dassl/__init__.py": "", "dassl/trainer.py": base, "cocoop.py": trainer}
    assert codes(findings(files=files)) == [("cocoop.py", 13, "ZG101")]
    cleared = trainer.replace(
        "            loss.backward()",
        "            self.optim.zero_grad()\n            loss.backward()",
    )
    files["cocoop.py"] = cleared
    assert findings(files=files) == []


# openvpi/SingingVocoders: a Lightning manual-optimization base task (another module)
# whose ``training_step`` hands the batch to ``self._training_step``, which each model's
# task overrides with its own GAN update; no file of the run calls ``training_step``
# (Lightning does, once per batch)
GAN_BASE_TASK = """\
    import lightning.pytorch as pl


    class GanBaseTask(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.automatic_optimization = False

        def _training_step(self, sample, batch_idx):
            raise NotImplementedError()

        def training_step(self, sample, batch_idx):
            log_outputs = self._training_step(sample, batch_idx)
            self.log_dict(log_outputs)
    """
GAN_MODEL_TASK = """\
    import torch
    from training.base_task_gan import GanBaseTask


    class HifiganTask(GanBaseTask):
        def __init__(self):
            super().__init__()
            self.generator = torch.nn.Linear(4, 4)
            self.discriminator = torch.nn.Linear(4, 1)

        def _training_step(self, sample, batch_idx):
            opt_g, opt_d = self.optimizers()
            fake = self.generator(sample)
            d_loss = self.discriminator(fake.detach()).mean() - self.discriminator(sample).mean()
            opt_d.zero_grad()
            self.manual_backward(d_loss)
            opt_d.step()
            g_loss = -self.discriminator(fake).mean()
            opt_g.zero_grad()
            self.manual_backward(g_loss)
            opt_g.step()
            return {"d": d_loss, "g": g_loss}
    """


def test_a_lightning_training_step_of_another_module_runs_the_override_per_batch(findings):
    files = {
        "training/__init__.py": "",
        "training/base_task_gan.py": GAN_BASE_TASK,
        "training/hifigan_task.py": GAN_MODEL_TASK,
    }
    assert findings(files=files) == []
    files["training/hifigan_task.py"] = GAN_MODEL_TASK.replace(
        "            opt_g.zero_grad()\n", ""
    )
    assert codes(findings(files=files)) == [("training/hifigan_task.py", 19, "ZG101")]


# vitchyr/rlkit (CQL, and the offline-RL code built on it): ``TorchTrainer.train`` calls
# ``self.train_from_torch``, which each algorithm's trainer (another class, here in the
# same module as the base) overrides with its updates; the script in another module
# builds the trainer and calls the inherited ``train`` once per batch. The base's own
# code touches no gradient: it is read for the methods the subclass inherits.
RL_TRAINERS = """\
    import torch


    class TorchTrainer:
        def train(self, batch):
            self._num_train_steps = getattr(self, "_num_train_steps", 0) + 1
            self.train_from_torch(batch)

        def train_from_torch(self, batch):
            raise NotImplementedError


    class SACTrainer(TorchTrainer):
        def __init__(self):
            self.policy = torch.nn.Linear(4, 2)
            self.policy_optimizer = torch.optim.Adam(self.policy.parameters())

        def train_from_torch(self, batch):
            loss = self.policy(batch).pow(2).mean()
            self.policy_optimizer.zero_grad()
            loss.backward()
            self.policy_optimizer.step()
    """
RL_SCRIPT = """\
    import torch
    from trainers import SACTrainer


    def experiment(batches):
        trainer = SACTrainer()
        for batch in batches:
            trainer.train(batch)
    """


def test_an_inherited_method_of_another_module_runs_the_instances_override(findings):
    files = {"trainers.py": RL_TRAINERS, "script.py": RL_SCRIPT}
    assert findings(files=files) == []
    never_cleared = RL_TRAINERS.replace("            self.policy_optimizer.zero_grad()\n", "")
    files["trainers.py"] = never_cleared
    assert codes(findings(files=files)) == [("script.py", 8, "ZG101")]


# vitchyr/rlkit: ``BatchRLAlgorithm.__init__`` hands its ``trainer`` to
# ``super().__init__(trainer, ...)``, where ``BaseRLAlgorithm`` stores it; the batch loop
# of the subclass calls ``self.trainer.train(...)``. The class the script builds is
# what ``self.trainer`` holds.
RL_ALGORITHMS = """\
    class BaseRLAlgorithm:
        def __init__(self, trainer, replay_buffer):
            self.trainer = trainer
            self.replay_buffer = replay_buffer


    class BatchRLAlgorithm(BaseRLAlgorithm):
        def __init__(self, trainer, replay_buffer, num_trains_per_epoch=10):
            super().__init__(trainer, replay_buffer)
            self.num_trains_per_epoch = num_trains_per_epoch

        def _train(self):
            for _ in range(self.num_trains_per_epoch):
                self.trainer.train(self.replay_buffer.random_batch())
    """
RL_EXPERIMENT = """\
    from algorithms import BatchRLAlgorithm
    from trainers import SACTrainer


    def experiment(replay_buffer):
        trainer = SACTrainer()
        algorithm = BatchRLAlgorithm(trainer, replay_buffer)
        algorithm._train()
    """


def test_a_constructor_argument_stored_by_the_base_constructor(findings):
    files = {
        "trainers.py": RL_TRAINERS,
        "algorithms.py": RL_ALGORITHMS,
        "experiment.py": RL_EXPERIMENT,
    }
    assert findings(files=files) == []
    never_cleared = RL_TRAINERS.replace("            self.policy_optimizer.zero_grad()\n", "")
    files["trainers.py"] = never_cleared
    assert codes(findings(files=files)) == [("algorithms.py", 14, "ZG101")]


# ikostrikov/pytorch-meta-optimizer: the learned optimizer is an ``nn.Module`` of
# another module whose name ends in Optimizer; ``optim.Adam`` steps its parameters and
# ``meta_optimizer.zero_grad()`` clears them
LEARNED_OPTIMIZER = """\
    import torch.nn as nn


    class FastMetaOptimizer(nn.Module):
        def __init__(self, hidden_size):
            super().__init__()
            self.linear = nn.Linear(6, hidden_size)

        def forward(self, x):
            return self.linear(x)
    """
META_TRAIN = """\
    import torch.optim as optim
    from meta_optimizer import FastMetaOptimizer


    def main(loader):
        meta_optimizer = FastMetaOptimizer(20)
        optimizer = optim.Adam(meta_optimizer.parameters(), lr=1e-3)
        for x in loader:
            meta_optimizer.zero_grad()
            meta_optimizer(x).sum().backward()
            optimizer.step()
    """


def test_a_learned_optimizer_of_another_module_is_a_model(findings):
    files = {"meta_optimizer.py": LEARNED_OPTIMIZER, "main.py": META_TRAIN}
    assert findings(files=files) == []
    files["main.py"] = META_TRAIN.replace("            meta_optimizer.zero_grad()\n", "")
    assert codes(findings(files=files)) == [("main.py", 9, "ZG101")]


def test_the_base_storing_it_in_another_module_and_a_pass_through_subclass(findings, tmp_path):
    # rlkit's layout: BaseRLAlgorithm (rl_algorithm.py) stores the trainer,
    # BatchRLAlgorithm (batch_rl_algorithm.py) hands it on, and the script builds
    # TorchBatchRLAlgorithm, a subclass with no constructor of its own
    base, batch = RL_ALGORITHMS.split("\n\n\n    class BatchRLAlgorithm")
    files = {
        "trainers.py": RL_TRAINERS.replace("            self.policy_optimizer.zero_grad()\n", ""),
        "rl_algorithm.py": "    import abc\n\n\n"
        + base.replace("BaseRLAlgorithm:", "BaseRLAlgorithm(object, metaclass=abc.ABCMeta):")
        + "\n",
        "batch_rl_algorithm.py": "    from rl_algorithm import BaseRLAlgorithm\n\n\n"
        "    class BatchRLAlgorithm" + batch,
        "torch_rl_algorithm.py": """\
    from batch_rl_algorithm import BatchRLAlgorithm


    class TorchBatchRLAlgorithm(BatchRLAlgorithm):
        def to(self, device):
            return self
    """,
        "experiment.py": RL_EXPERIMENT.replace(
            "from algorithms import BatchRLAlgorithm",
            "from torch_rl_algorithm import TorchBatchRLAlgorithm",
        ).replace("BatchRLAlgorithm(trainer", "TorchBatchRLAlgorithm(trainer"),
    }
    assert codes(findings(files=files)) == [("batch_rl_algorithm.py", 11, "ZG101")]
    # cached: editing the trainer's module (reached through the subclass's callers)
    # judges the loop again
    cache = f"--cache-dir={tmp_path / 'cache'}"
    files["trainers.py"] = RL_TRAINERS
    assert findings(cache, files=files) == []
    files["trainers.py"] = RL_TRAINERS.replace(
        "            self.policy_optimizer.zero_grad()\n", ""
    )
    assert codes(findings(cache, files=files)) == [("batch_rl_algorithm.py", 11, "ZG101")]


def test_a_base_class_too_long_to_load_whole_still_runs_the_override(findings):
    # MIC-DKFZ/nnUNet: nnUNetTrainer (70,000 characters, over the definition limit)
    # loops over batches in run_training and calls the train_step each trainer
    # variant of another module overrides
    padding = "".join(
        f"    def helper_{i}(self, x):\n        return x + {i}  # {'padding ' * 6}\n\n"
        for i in range(700)
    )
    base = (
        "import torch\n\n\n"
        "class BaseTrainer(object):\n"
        "    def __init__(self):\n"
        "        self.network = torch.nn.Linear(4, 1)\n"
        "        self.optimizer = torch.optim.SGD(self.network.parameters(), lr=0.1)\n\n"
        "    def train_step(self, batch):\n"
        "        self.optimizer.zero_grad(set_to_none=True)\n"
        "        self.network(batch).mean().backward()\n"
        "        self.optimizer.step()\n\n"
        "    def run_training(self, batches):\n"
        "        for batch in batches:\n"
        "            self.train_step(batch)\n\n" + padding
    )
    assert len(base) > 64_000
    variant = (
        "from pkg.base import BaseTrainer\n\n\n"
        "class PrimusTrainer(BaseTrainer):\n"
        "    def train_step(self, batch):\n"
        "        self.optimizer.zero_grad()\n"
        "        self.network(batch).pow(2).mean().backward()\n"
        "        self.optimizer.step()\n"
    )
    files = {
        "pkg/__init__.py": "",
        "pkg/base.py": base,
        "pkg/sub/__init__.py": "",
        "pkg/sub/primus.py": variant,
    }
    assert findings(files=files) == []
    files["pkg/sub/primus.py"] = variant.replace("        self.optimizer.zero_grad()\n", "")
    assert codes(findings(files=files)) == [("pkg/sub/primus.py", 6, "ZG101")]
    # through a base of the variant's own file (PretrainedTrainer_Primus over the
    # file's PretrainedTrainer over nnUNetTrainer)
    files["pkg/sub/primus.py"] = (
        variant.replace("class PrimusTrainer(BaseTrainer)", "class PretrainedTrainer(BaseTrainer)")
        + "\n\nclass PretrainedPrimus(PretrainedTrainer):\n"
        "    def train_step(self, batch):\n"
        "        self.network(batch).pow(2).mean().backward()\n"
        "        self.optimizer.step()\n"
    )
    assert codes(findings(files=files)) == [("pkg/sub/primus.py", 13, "ZG101")]
