"""One ``step(closure)`` of PyTorch's ``LBFGS`` evaluates the closure again after each
update of the parameters (up to ``max_iter`` times, 20 by default): a closure that does
not clear adds each evaluation's gradients onto those the last update used
(gpleiss/temperature_scaling's ``optimizer.step(eval)``, Gatys style transfer's single
LBFGS step over the image). Silent when the closure clears, with ``max_iter=1`` (one
evaluation per step), and for an optimizer that runs the closure once."""
import torch
from torch import nn, optim
from torch.optim import LBFGS

temperature = nn.Parameter(torch.ones(1) * 1.5)
optimizer = optim.LBFGS([temperature], lr=0.01, max_iter=200)


def eval():
    loss = nll_criterion(logits / temperature, labels)
    loss.backward()  # expect: ZG101
    return loss


optimizer.step(eval)


def style_transfer(net, image, target):
    optimizer = LBFGS((image,), max_iter=1000, line_search_fn="strong_wolfe")

    def closure():
        total_loss = ((net(image) - target) ** 2).sum()
        total_loss.backward()  # expect: ZG101
        return total_loss

    optimizer.step(closure)


def style_transfer_clearing(net, image, target):
    optimizer = torch.optim.LBFGS((image,), max_iter=1000)

    def closure():
        optimizer.zero_grad()
        total_loss = ((net(image) - target) ** 2).sum()
        total_loss.backward()
        return total_loss

    optimizer.step(closure)


def one_iteration(net, image, target):
    optimizer = torch.optim.LBFGS((image,), max_iter=1)

    def closure():
        total_loss = ((net(image) - target) ** 2).sum()
        total_loss.backward()
        return total_loss

    optimizer.step(closure)


def closure_run_once(net, image, target):
    optimizer = torch.optim.SGD((image,), lr=0.1)

    def closure():
        total_loss = ((net(image) - target) ** 2).sum()
        total_loss.backward()
        return total_loss

    optimizer.step(closure)


class ModelWithTemperature(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model
        self.temperature = nn.Parameter(torch.ones(1) * 1.5)
        self.optimizer = optim.LBFGS([self.temperature], lr=0.01, max_iter=50)

    def set_temperature(self, logits, labels):
        def eval():
            self.optimizer.zero_grad()
            loss = nll_criterion(logits / self.temperature, labels)
            loss.backward()
            return loss

        self.optimizer.step(eval)


def optimal_temp_scale(logits, labels, lr=0.01, max_iter=50):
    # swa_gaussian's experiments/uncertainty/temp_scaling.py: a bug in the original code
    T = torch.ones(1, requires_grad=True)
    optimizer = optim.LBFGS([T], lr=lr, max_iter=max_iter)

    def eval():
        loss = nll_criterion(logits / T, labels)
        loss.backward(retain_graph=True)  # expect: ZG101
        return loss

    optimizer.step(eval)
    return T.item()
