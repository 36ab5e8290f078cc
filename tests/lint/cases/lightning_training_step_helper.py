"""A Lightning manual-optimization ``training_step`` that hands the batch to a helper
method (openvpi/SingingVocoders' ``GanBaseTask._training_step``, overridden per model).
The helper's ``opt_g, opt_d = self.optimizers()`` names the module's optimizers, the
same objects at every call: what the previous batch left on them is still there, so a
helper that never clears ``opt_g`` applies every earlier batch's gradients again.

Where the class's methods give one of those optimizers different names (one clears
``opt``, another steps ``o``), which name is which object is not followed: silent."""

import lightning.pytorch as pl
import torch


class GanTask(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.automatic_optimization = False
        self.generator = torch.nn.Linear(4, 4)
        self.discriminator = torch.nn.Linear(4, 1)

    def _training_step(self, batch, batch_idx):
        opt_g, opt_d = self.optimizers()
        fake = self.generator(batch)
        d_loss = self.discriminator(fake.detach()).mean() - self.discriminator(batch).mean()
        opt_d.zero_grad()
        self.manual_backward(d_loss)
        opt_d.step()
        g_loss = -self.discriminator(fake).mean()
        self.manual_backward(g_loss)  # expect: ZG101
        opt_g.step()

    def training_step(self, batch, batch_idx):
        return self._training_step(batch, batch_idx)


class GanTaskCleared(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.automatic_optimization = False
        self.generator = torch.nn.Linear(4, 4)
        self.discriminator = torch.nn.Linear(4, 1)

    def _training_step(self, batch, batch_idx):
        opt_g, opt_d = self.optimizers()
        fake = self.generator(batch)
        d_loss = self.discriminator(fake.detach()).mean() - self.discriminator(batch).mean()
        opt_d.zero_grad()
        self.manual_backward(d_loss)
        opt_d.step()
        g_loss = -self.discriminator(fake).mean()
        opt_g.zero_grad()
        self.manual_backward(g_loss)
        opt_g.step()

    def training_step(self, batch, batch_idx):
        log = self._training_step(batch, batch_idx)
        self.log_dict(log)


class RegressionTaskNamedTwice(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.automatic_optimization = False
        self.net = torch.nn.Linear(4, 1)

    def _update(self, loss):
        o = self.optimizers()
        self.manual_backward(loss)
        o.step()

    def training_step(self, batch, batch_idx):
        opt = self.optimizers()
        opt.zero_grad()
        self._update(self.net(batch).mean())


class GanBaseTask(pl.LightningModule):
    """The base task's ``training_step`` runs each model's override per batch."""

    def __init__(self):
        super().__init__()
        self.automatic_optimization = False

    def _training_step(self, sample, batch_idx):
        raise NotImplementedError()

    def training_step(self, sample, batch_idx):
        self.log_dict(self._training_step(sample, batch_idx))


class HifiganTask(GanBaseTask):
    def __init__(self):
        super().__init__()
        self.generator = torch.nn.Linear(4, 4)

    def _training_step(self, sample, batch_idx):
        opt_g, opt_d = self.optimizers()
        g_loss = self.generator(sample).mean()
        self.manual_backward(g_loss)  # expect: ZG101
        opt_g.step()
        return {"g": g_loss}
