"""An attribute holding an instance of a class of the file that defines ``__call__``
(lyhue1991/torchkeras's ``EpochRunner`` calling ``self.step_runner(batch)`` on the
``StepRunner`` its constructor was handed) runs that ``__call__``: the training step
behind it is judged in the epoch's loop. A runner that clears after its step is correct;
one that does not adds each batch's gradients onto those already applied (ZG101)."""

import torch
from torch import nn


class StepRunner:
    def __init__(self, net, loss_fn, optimizer=None):
        self.net, self.loss_fn, self.optimizer = net, loss_fn, optimizer

    def __call__(self, batch):
        features, labels = batch
        loss = self.loss_fn(self.net(features), labels)
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
        return loss.item()


class ForgetfulStepRunner:
    def __init__(self, net, loss_fn, optimizer=None):
        self.net, self.loss_fn, self.optimizer = net, loss_fn, optimizer

    def __call__(self, batch):
        features, labels = batch
        loss = self.loss_fn(self.net(features), labels)
        loss.backward()  # expect: ZG101
        self.optimizer.step()
        return loss.item()


class EpochRunner:
    def __init__(self, step_runner):
        self.step_runner = step_runner

    def __call__(self, dataloader):
        return [self.step_runner(batch) for batch in dataloader]


class LoopingEpochRunner:
    def __init__(self, net, optimizer):
        self.step_runner = ForgetfulStepRunner(net, nn.MSELoss(), optimizer)

    def __call__(self, dataloader):
        for batch in dataloader:
            self.step_runner(batch)


def fit(net, loader, epochs):
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
    runner = EpochRunner(StepRunner(net, nn.MSELoss(), optimizer))
    for _ in range(epochs):
        runner(loader)
