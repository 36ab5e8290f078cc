"""A train step a factory makes (dvgodoy/PyTorchStepByStep's ``make_train_step_fn``),
handed to the helper that loops (``mini_batch(device, loader, train_step_fn)``) or kept
in an attribute (``self.train_step_fn = self._make_train_step_fn()``, called as
``self.train_step_fn(x, y)`` or through ``step_fn = self.train_step_fn``): calling it
runs the made function. A made step that clears is correct; one made from a caller's
own parameters is not followed through another function (its names differ there)."""
import numpy as np
import torch


def make_train_step_fn(model, loss_fn, optimizer):
    def perform_train_step_fn(x, y):
        loss = loss_fn(model(x), y)
        loss.backward()  # expect: ZG101
        optimizer.step()
        return loss.item()

    return perform_train_step_fn


def make_clearing_step_fn(model, loss_fn, optimizer):
    def perform_train_step_fn(x, y):
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        return loss.item()

    return perform_train_step_fn


def mini_batch(device, data_loader, step_fn):
    losses = []
    for x_batch, y_batch in data_loader:
        losses.append(step_fn(x_batch.to(device), y_batch.to(device)))
    return np.mean(losses)


model = torch.nn.Linear(1, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
train_step_fn = make_train_step_fn(model, torch.nn.MSELoss(), optimizer)
clearing_step_fn = make_clearing_step_fn(model, torch.nn.MSELoss(), optimizer)
for epoch in range(100):
    mini_batch("cpu", loader, train_step_fn)
    mini_batch("cpu", loader, clearing_step_fn)


def fit(device, data_loader, step_fn):
    for x_batch, y_batch in data_loader:
        step_fn(x_batch.to(device), y_batch.to(device))


def run(model, optimizer, loader):
    # made from the caller's own parameters: ``fit`` is not judged with it
    fit("cpu", loader, make_clearing_step_fn(model, torch.nn.MSELoss(), optimizer))
    step = make_train_step_fn(model, torch.nn.MSELoss(), optimizer)
    fit("cpu", loader, step)


class StepByStep:
    def __init__(self, model, loss_fn, optimizer):
        self.model = model
        self.loss_fn = loss_fn
        self.optimizer = optimizer
        self.train_step_fn = self._make_train_step_fn()

    def _make_train_step_fn(self):
        def perform_train_step_fn(x, y):
            loss = self.loss_fn(self.model(x), y)
            loss.backward()  # expect: ZG101
            self.optimizer.step()
            return loss.item()

        return perform_train_step_fn

    def _mini_batch(self, loader):
        losses = []
        for x, y in loader:
            step_fn = self.train_step_fn
            losses.append(step_fn(x, y))
        return np.mean(losses)

    def train_directly(self, loader):
        for x, y in loader:
            self.train_step_fn(x, y)


class ClearingStepByStep(StepByStep):
    def _make_train_step_fn(self):
        def perform_train_step_fn(x, y):
            self.optimizer.zero_grad()
            loss = self.loss_fn(self.model(x), y)
            loss.backward()
            self.optimizer.step()
            return loss.item()

        return perform_train_step_fn
