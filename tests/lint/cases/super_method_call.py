"""``super().method(...)`` in a method of a class of the file runs the method its bases
define (in-file bases, method resolution order), on the same ``self``: an override that
extends the base's training step is judged with what the base does."""

import torch


class Trainer:
    def __init__(self, model):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=0.1)

    def train_step(self, batch):
        loss = self.model(batch).sum()
        loss.backward()  # expect: ZG101
        self.opt.step()


class EMATrainer(Trainer):
    def train_step(self, batch):
        super().train_step(batch)
        self.update_ema()

    def update_ema(self):
        pass

    def fit(self, loader):
        for batch in loader:
            self.train_step(batch)


class ClearingTrainer(Trainer):
    def train_step(self, batch):
        self.opt.zero_grad()
        super(ClearingTrainer, self).train_step(batch)

    def fit(self, loader):
        for batch in loader:
            self.train_step(batch)


class Cleared:
    def __init__(self, model):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=0.1)

    def train_step(self, batch):
        self.opt.zero_grad()
        loss = self.model(batch).sum()
        loss.backward()
        self.opt.step()


class LoggingTrainer(Cleared):
    def train_step(self, batch):
        super().train_step(batch)
        print("step")

    def fit(self, loader):
        for batch in loader:
            self.train_step(batch)


class SharedAdam(torch.optim.Adam):
    def step(self, closure=None):
        # a base outside the file: the call stays what it was (the library's step)
        return super().step(closure)


class SRModel:
    def __init__(self):
        self.net_g = torch.nn.Linear(4, 4)
        self.optimizer_g = torch.optim.Adam(self.net_g.parameters())

    def optimize_parameters(self, current_iter):
        l_total = (self.net_g(self.lq) - self.gt).abs().mean()
        l_total.backward()  # expect: ZG101
        self.optimizer_g.step()


class VideoBaseModel(SRModel):
    pass


class EDVRModel(VideoBaseModel):
    # BasicSR: ``super(Base, self)`` starts the lookup after ``Base``
    def optimize_parameters(self, current_iter):
        super(VideoBaseModel, self).optimize_parameters(current_iter)


def main(loader):
    model = EDVRModel()
    for i, (lq, gt) in enumerate(loader):
        model.lq, model.gt = lq, gt
        model.optimize_parameters(i)
