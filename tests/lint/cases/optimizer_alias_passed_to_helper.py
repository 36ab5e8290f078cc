# An optimizer read from an attribute into a local name (`optimizer = state.optimizer`,
# `optimizer = self.optimizer`) and passed to a helper that steps it is the optimizer the
# caller clears under that local name: the helper's step is a step of the cleared one.
import torch


def one_step(model, optimizer, x):
    model(x).sum().backward()
    optimizer.step()


def cleared_before_the_helper(state, data):
    model = state.model
    optimizer = state.optimizer
    for x in data:
        optimizer.zero_grad()
        one_step(model, optimizer, x)


def step_of_the_trainer(model, optimizer, x):
    model(x).sum().backward()
    optimizer.step()


class Trainer:
    def train(self, data):
        model = self.model
        optimizer = self.optimizer
        for x in data:
            optimizer.zero_grad()
            step_of_the_trainer(model, optimizer, x)


def make_step(model, optimizer):
    def train_step(x):
        model(x).sum().backward()
        optimizer.step()

    return train_step


def cleared_before_the_made_step(state, data):
    model = state.model
    optimizer = state.optimizer
    train_step = make_step(model, optimizer)
    for x in data:
        optimizer.zero_grad()
        train_step(x)


def unclear_step(model, optimizer, x):
    model(x).sum().backward()  # expect: ZG101
    optimizer.step()


def never_cleared(state, data):
    model = state.model
    optimizer = state.optimizer
    for x in data:
        unclear_step(model, optimizer, x)


def make_unclear_step(model, optimizer):
    def train_step(x):
        model(x).sum().backward()  # expect: ZG101
        optimizer.step()

    return train_step


def made_step_never_cleared(state, data):
    optimizer = state.optimizer
    train_step = make_unclear_step(state.model, optimizer)
    for x in data:
        train_step(x)
