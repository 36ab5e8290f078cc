# A parameter or a local variable named like a function of the module hides that
# function: calling it runs what was passed or assigned, not the module's function
# (found while reducing score_sde_pytorch's `optimize_fn`, a closure handed down).
import torch


def optimize_fn(optimizer):
    optimizer.step()


def clearing_optimize_fn(optimizer):
    optimizer.step()
    optimizer.zero_grad()


def train_with_a_parameter(model, optimizer, data, optimize_fn):
    for x in data:
        model(x).mean().backward()
        optimize_fn(optimizer)


def make_optimize_fn():
    def inner(optimizer):
        optimizer.step()
        optimizer.zero_grad()

    return inner


def train_with_a_local(model, optimizer, data):
    optimize_fn = make_optimize_fn()
    for x in data:
        model(x).mean().backward()
        optimize_fn(optimizer)


def train_with_the_module_function(model, optimizer, data):
    for x in data:
        model(x).mean().backward()  # expect: ZG101
        optimize_fn(optimizer)


model = torch.nn.Linear(4, 4)
opt = torch.optim.Adam(model.parameters())
train_with_a_parameter(model, opt, [], clearing_optimize_fn)
train_with_a_local(model, opt, [])
