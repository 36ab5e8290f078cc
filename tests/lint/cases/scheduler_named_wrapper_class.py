"""A class of the file whose name reads like a learning-rate scheduler but that wraps the
optimizer (jadore801120/attention-is-all-you-need-pytorch's ``ScheduledOptim``, copied
into many transformer trainers: ``step_and_update_lr()`` steps the optimizer it was
handed, ``zero_grad()`` clears it). The name made every instance a scheduler, whose
``step()`` touches no gradients, so a loop over it was never judged. A class whose code
is linted is judged by that code, not by its name; a real scheduler class of the file
changes no gradient and stays silent."""
import torch
from torch import optim


class ScheduledOptim:
    def __init__(self, optimizer, lr_mul, n_warmup_steps):
        self._optimizer = optimizer
        self.lr_mul = lr_mul
        self.n_warmup_steps = n_warmup_steps
        self.n_steps = 0

    def step_and_update_lr(self):
        self._update_learning_rate()
        self._optimizer.step()

    def zero_grad(self):
        self._optimizer.zero_grad()

    def _update_learning_rate(self):
        self.n_steps += 1
        lr = self.lr_mul * min(self.n_steps ** (-0.5), self.n_steps * self.n_warmup_steps ** (-1.5))
        for param_group in self._optimizer.param_groups:
            param_group["lr"] = lr


class WarmupScheduler:
    def __init__(self, optimizer, warmup):
        self.optimizer = optimizer
        self.warmup = warmup
        self.count = 0

    def step(self):
        self.count += 1
        for group in self.optimizer.param_groups:
            group["lr"] = min(1.0, self.count / self.warmup)


def wrapper_never_cleared(data):
    model = torch.nn.Linear(4, 1)
    optimizer = ScheduledOptim(optim.Adam(model.parameters()), 2.0, 4000)
    for x, y in data:
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()  # expect: ZG101
        optimizer.step_and_update_lr()


def wrapper_cleared(data):
    model = torch.nn.Linear(4, 1)
    optimizer = ScheduledOptim(optim.Adam(model.parameters()), 2.0, 4000)
    for x, y in data:
        optimizer.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step_and_update_lr()


def scheduler_of_the_file(data):
    model = torch.nn.Linear(4, 1)
    opt = optim.Adam(model.parameters())
    scheduler = WarmupScheduler(opt, 100)
    for x, y in data:
        opt.zero_grad()
        torch.nn.functional.mse_loss(model(x), y).backward()
        opt.step()
        scheduler.step()
