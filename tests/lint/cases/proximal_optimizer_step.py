"""A proximal optimizer of the project (DSE-MSU/DeepRobust's ``PGD``) whose ``step()``
only applies proximal operators to the parameters and never reads ``.grad``: Pro-GNN
runs ``optimizer_l1.zero_grad(); optimizer_l1.step()`` after ``optimizer_adj`` applied
the gradients of the same parameters. That step applies no gradient, so the clear before
it discards nothing a step needed (two false ZG102, whose fix was offered). A class
whose ``step()`` reads ``.grad`` is an optimizer like any other."""
import torch
from torch import nn, optim
from torch.optim import Optimizer


class PGD(Optimizer):
    """Proximal step only: applies prox operators to the parameters."""

    def __init__(self, params, proxs, alphas, lr=0.01):
        super().__init__(params, dict(lr=lr))
        for group in self.param_groups:
            group.setdefault("proxs", proxs)
            group.setdefault("alphas", alphas)

    def step(self, closure=None):
        for group in self.param_groups:
            for param in group["params"]:
                for prox, alpha in zip(group["proxs"], group["alphas"]):
                    # param.data.add_(-group["lr"], param.grad.data)  (not code)
                    param.data = prox(param.data, alpha=alpha * group["lr"])


class SignSGD(Optimizer):
    def __init__(self, params, lr=0.01):
        super().__init__(params, dict(lr=lr))

    def step(self, closure=None):
        for group in self.param_groups:
            for param in group["params"]:
                param.data -= group["lr"] * param.grad.sign()


def prox_l1(data, alpha):
    return torch.sign(data) * torch.clamp(data.abs() - alpha, min=0)


class Estimator(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.estimated_adj = nn.Parameter(torch.rand(n, n))


def train_adj(adj, epochs):
    estimator = Estimator(8)
    optimizer_adj = optim.SGD(estimator.parameters(), lr=0.01)
    optimizer_l1 = PGD(estimator.parameters(), proxs=[prox_l1], alphas=[5e-4], lr=0.01)
    for epoch in range(epochs):
        optimizer_adj.zero_grad()
        loss = torch.norm(estimator.estimated_adj - adj, p="fro")
        loss.backward()
        optimizer_adj.step()
        optimizer_l1.zero_grad()
        optimizer_l1.step()


def sign_sgd_cleared_before_its_step(adj, epochs):
    estimator = Estimator(8)
    sign_optimizer = SignSGD(estimator.parameters(), lr=0.01)
    for epoch in range(epochs):
        loss = torch.norm(estimator.estimated_adj - adj, p="fro")
        loss.backward()
        sign_optimizer.zero_grad()
        sign_optimizer.step()  # expect: ZG102
