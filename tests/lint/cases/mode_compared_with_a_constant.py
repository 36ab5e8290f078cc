"""A training mode fixed when the trainer is built (datawhalechina/torch-rechub's
``MTLTrainer``: ``if self.method == "metabalance":`` clears and steps two optimizers
over the shared and task layers, else one optimizer over the whole model): a loop
takes the same branch on every iteration, so the else branch's step is never followed
by the other branch's backward and read of ``.grad`` (was a false ZG101), nor from one call of the
epoch to the next (``self.train_one_epoch()`` tests the same object's attribute). A
mode that the loop itself changes is a condition like any other."""
import torch
from torch import nn


def balance(losses, params):
    total = [torch.zeros_like(p) for p in params]
    for loss in losses:
        loss.backward(retain_graph=True)
        for p, t in zip(params, total):
            t += p.grad / (p.grad.norm() + 1e-5)
            p.grad.zero_()
    for p, t in zip(params, total):
        p.grad = t


class Trainer:
    def __init__(self, model, method=None):
        self.model = model
        self.method = method
        if method == "balance":
            self.share_optimizer = torch.optim.Adam(model[0].parameters())
            self.task_optimizer = torch.optim.Adam(model[1].parameters())
        else:
            self.optimizer = torch.optim.Adam(model.parameters())

    def train_one_epoch(self, loader):
        for x, y in loader:
            out = self.model(x)
            loss_list = [((out - y) ** 2).mean(), out.abs().mean()]
            if self.method == "balance":
                self.share_optimizer.zero_grad()
                self.task_optimizer.zero_grad()
                balance(loss_list, list(self.model[0].parameters()))
                self.share_optimizer.step()
                self.task_optimizer.step()
            else:
                self.model.zero_grad()
                sum(loss_list).backward()
                self.optimizer.step()

    def fit(self, loader, epochs):
        for _ in range(epochs):  # the mode is the same at every call
            self.train_one_epoch(loader)


def mode_changed_by_the_loop(model, loader):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    mode = "warmup"
    for x, y in loader:
        loss = ((model(x) - y) ** 2).mean()
        if mode == "warmup":
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            mode = "train"
        else:
            loss.backward()  # expect: ZG101
            optimizer.step()
