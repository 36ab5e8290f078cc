# A loop that calls a step function it was handed (`fit(..., fit_function=...)`, or the
# parameter's default) runs the functions this file passes it: each is a configuration
# of the program, judged on its own (oscarknagg/few-shot's `fit`, score_sde_pytorch's
# `optimize_fn`).
import torch


def gradient_step(model, optimiser, loss_fn, x, y):
    model.train()
    loss = loss_fn(model(x), y)
    loss.backward()  # expect: ZG101
    optimiser.step()
    return loss


def fit(model, optimiser, loss_fn, dataloader, fit_function=gradient_step):
    for x, y in dataloader:
        fit_function(model, optimiser, loss_fn, x, y)


def clearing_step(model, optimiser, loss_fn, x, y):
    optimiser.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimiser.step()
    return loss


def forgetful_step(model, optimiser, loss_fn, x, y):
    loss = loss_fn(model(x), y)
    loss.backward()  # expect: ZG101
    optimiser.step()
    return loss


def fit_handed(model, optimiser, loss_fn, dataloader, fit_function=None):
    for x, y in dataloader:
        fit_function(model, optimiser, loss_fn, x, y)


def careful_step(model, optimiser, loss_fn, x, y):
    optimiser.zero_grad()
    loss_fn(model(x), y).backward()
    optimiser.step()


def fit_with_a_careful_default(model, optimiser, loss_fn, dataloader, step_fn=careful_step):
    for x, y in dataloader:
        step_fn(model, optimiser, loss_fn, x, y)


def main(model, optimiser, loss_fn, dataloader, steps):
    fit_handed(model, optimiser, loss_fn, dataloader, fit_function=clearing_step)
    fit_handed(model, optimiser, loss_fn, dataloader, fit_function=forgetful_step)
    fit_handed(model, optimiser, loss_fn, dataloader, fit_function=steps[0])
    fit_with_a_careful_default(model, optimiser, loss_fn, dataloader)


def forgetful_but_not_passed(model, optimiser, x):
    model(x).sum().backward()
    optimiser.step()


def fit_over_loaders(model, optimiser, *loaders, fit_function=careful_step):
    for loader in loaders:
        for x, y in loader:
            fit_function(model, optimiser, torch.nn.functional.mse_loss, x, y)


def main_with_loaders(model, optimiser):
    # ``forgetful_but_not_passed`` lands in ``*loaders``: the default step runs
    fit_over_loaders(model, optimiser, forgetful_but_not_passed)
