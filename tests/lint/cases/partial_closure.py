"""A closure bound with ``functools.partial`` before it is handed to ``step`` (timm's
optimizer tests): the closure is the partial's function, its parameters bound to the
partial's arguments, so ``optimizer.zero_grad()`` inside it clears the optimizer it was
bound to."""

import functools
from functools import partial

import torch

criterion = torch.nn.MSELoss()


def closure_base(optimizer, model, x, y):
    optimizer.zero_grad()
    loss = criterion(model(x), y)
    loss.backward()
    return loss


def uncleared_base(model, x, y):
    loss = criterion(model(x), y)
    loss.backward()  # expect: ZG101
    return loss


def clears_inside_the_closure(loader):
    net = Net()
    lbfgs = torch.optim.LBFGS(net.parameters())
    for x, y in loader:
        fn = functools.partial(closure_base, lbfgs, net, x, y)
        lbfgs.step(fn)


def clears_inside_the_closure_keywords(loader):
    net = Net()
    lbfgs = torch.optim.LBFGS(net.parameters())
    for x, y in loader:
        fn = partial(closure_base, optimizer=lbfgs, model=net, x=x, y=y)
        lbfgs.step(fn)


def never_cleared(loader):
    net = Net()
    lbfgs = torch.optim.LBFGS(net.parameters())
    for x, y in loader:
        fn = functools.partial(uncleared_base, net, x, y)
        lbfgs.step(fn)


def bound_from_unpacked_arguments(loader, extra):
    # what ``*extra`` binds is not known: the closure stays unknown
    net = Net()
    lbfgs = torch.optim.LBFGS(net.parameters())
    for x, y in loader:
        fn = functools.partial(closure_base, *extra)
        lbfgs.step(fn)


def closure():
    # a module-level closure of the same name as a local partial below
    return criterion(Net()(torch.randn(4, 2)), torch.randn(4, 1))


def uncleared_shadowing_base(model, x, y):
    loss = criterion(model(x), y)
    loss.backward()  # expect: ZG101
    return loss


def local_partial_shadows_a_module_function(loader):
    # the nearest binding of ``closure`` is the local partial, not the function above
    net = Net()
    lbfgs = torch.optim.LBFGS(net.parameters())
    for x, y in loader:
        closure = functools.partial(uncleared_shadowing_base, net, x, y)
        lbfgs.step(closure)
