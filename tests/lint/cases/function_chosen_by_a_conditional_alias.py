"""A training function chosen by a conditional expression (continual-learning's
``train_fn = train_fromp if ... else (train_gen_classifier if ... else train_cl)``):
each choice is a configuration of the program, judged in its own analysis."""

import torch


def train_step(model, optimizer, batch):
    loss = model(batch).sum()
    loss.backward()  # expect: ZG101
    optimizer.step()


def train_step_cleared(model, optimizer, batch):
    optimizer.zero_grad()
    loss = model(batch).sum()
    loss.backward()
    optimizer.step()


def evaluate_step(model, optimizer, batch):
    return model(batch)


def main(model, loader, fast, evaluate):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    step_fn = evaluate_step if evaluate else (train_step_cleared if fast else train_step)
    for batch in loader:
        step_fn(model, optimizer, batch)


def main_all_cleared(model, loader, fast):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    step_fn = train_step_cleared if fast else evaluate_step
    for batch in loader:
        step_fn(model, optimizer, batch)
