"""Separate ``if`` statements that compare one name with different constants (a task
chosen once: ``if opt.task == "semantic": ... if opt.task == "depth": ...``, the
single-task baselines of CAGrad and MTAN) are exclusive: a path that took one takes
none of the others, so each block's backward and step run alone (were false ZG101 at the
second block's backward). Comparisons with the same constant, a name assigned between
the tests, or a comparison with something that is not a constant stay independent."""

import torch


def single_task(model, loader, opt):
    optimizer = torch.optim.Adam(model.parameters())
    for x, y in loader:
        pred = model(x)
        optimizer.zero_grad()
        if opt.task == "semantic":
            loss = (pred - y).pow(2).mean()
            loss.backward()
            optimizer.step()
        if opt.task == "depth":
            loss = (pred - y).abs().mean()
            loss.backward()
            optimizer.step()
        if opt.task == "normal":
            loss = 1 - (pred * y).sum(1).mean()
            loss.backward()
            optimizer.step()


def two_tests_of_one_value(model, loader, mode):
    optimizer = torch.optim.Adam(model.parameters())
    for x, y in loader:
        optimizer.zero_grad()
        if mode == "a":
            (model(x) - y).pow(2).mean().backward()
            optimizer.step()
        if mode == "a":
            (model(x) - y).abs().mean().backward()  # expect: ZG101
            optimizer.step()


def value_changed_between(model, loader, mode, next_mode):
    optimizer = torch.optim.Adam(model.parameters())
    for x, y in loader:
        optimizer.zero_grad()
        if mode == "a":
            (model(x) - y).pow(2).mean().backward()
            optimizer.step()
        mode = next_mode(mode)
        if mode == "b":
            (model(x) - y).abs().mean().backward()  # expect: ZG101
            optimizer.step()
