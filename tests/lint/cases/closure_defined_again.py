# Two fitting phases in one function, each defining its own ``def closure():`` right
# before its ``step(closure)`` (motion-diffusion-model's SMPLify): a step runs the
# definition made so far, not a later one of the same name. Reading the second closure
# for the first step reported a false leak into ``opt_a`` and hid a missing clear in
# the first closure.
import torch


def fit(model, a, b, target):
    opt_a = torch.optim.LBFGS([a])
    for i in range(10):
        def closure():
            opt_a.zero_grad()
            loss = (model(a) - target).pow(2).mean()
            loss.backward()
            return loss
        opt_a.step(closure)

    opt_b = torch.optim.LBFGS([b])
    for i in range(10):
        def closure():
            opt_b.zero_grad()
            loss = (model(b) - target).pow(2).mean()
            loss.backward()
            return loss
        opt_b.step(closure)


def first_closure_never_clears(model, a, b, target):
    opt_a = torch.optim.LBFGS([a])
    for i in range(10):
        def closure():
            loss = (model(a) - target).pow(2).mean()
            loss.backward()  # expect: ZG101
            return loss
        opt_a.step(closure)

    opt_b = torch.optim.LBFGS([b])
    for i in range(10):
        def closure():
            opt_b.zero_grad()
            loss = (model(b) - target).pow(2).mean()
            loss.backward()
            return loss
        opt_b.step(closure)

