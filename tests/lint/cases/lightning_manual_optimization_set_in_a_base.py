"""Lightning's manual optimization switched off in a base class's ``__init__``
(KlemenVovk/noisy-labels' ``SOPplus`` derives from ``SOP``, which sets
``self.automatic_optimization = False``): the subclass's ``training_step`` runs once per
batch like the base's. It was judged as one call only, so an optimizer it steps and
never clears went unreported."""
import lightning as L
import torch
from torch.nn.functional import cross_entropy


class Base(L.LightningModule):
    def __init__(self, model):
        super().__init__()
        self.model = model
        self.u = torch.nn.Parameter(torch.zeros(1))
        self.automatic_optimization = False


class Child(Base):
    def training_step(self, batch, batch_idx):
        x, y = batch
        opt, opt_loss = self.optimizers()
        loss = cross_entropy(self.model(x), y) + self.u.sum()
        opt_loss.zero_grad()
        loss.backward()  # expect: ZG101
        opt_loss.step()
        opt.step()
        return loss


class ClearingChild(Base):
    def training_step(self, batch, batch_idx):
        x, y = batch
        opt, opt_loss = self.optimizers()
        loss = cross_entropy(self.model(x), y) + self.u.sum()
        opt_loss.zero_grad()
        opt.zero_grad()
        loss.backward()
        opt_loss.step()
        opt.step()
        return loss
