"""``torch.autograd.grad(loss, x)`` computes gradients as values and neither reads nor
writes ``x.grad`` (DSE-MSU/DeepRobust's ``MinMax.attack``: a projected-gradient update of
the perturbation ``self.adj_changes.data.add_(lr * adj_grad)`` with ``adj_grad`` from
``torch.autograd.grad``). It was read as the attribute ``.grad`` of ``torch.autograd``,
so the update became "the manual update of `torch.autograd`" and the victim's backward a
false ZG101. An update that reads ``.grad`` itself and is never cleared stays flagged."""
import torch
from torch import nn, optim


class MinMax(nn.Module):
    def __init__(self, victim_model, n):
        super().__init__()
        self.surrogate = victim_model
        self.adj_changes = nn.Parameter(torch.zeros(n))

    def attack(self, x, y, epochs=200):
        victim_model = self.surrogate
        optimizer = optim.Adam(victim_model.parameters(), lr=0.01)
        for t in range(epochs):
            output = victim_model(x + self.adj_changes)
            loss = nn.functional.cross_entropy(output, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

            output = victim_model(x + self.adj_changes)
            loss = nn.functional.cross_entropy(output, y)
            adj_grad = torch.autograd.grad(loss, self.adj_changes)[0]
            self.adj_changes.data.add_(0.1 * adj_grad)


def perturbation_by_its_grad(victim_model, x, y, epochs=200):
    delta = torch.zeros_like(x, requires_grad=True)
    for t in range(epochs):
        loss = nn.functional.cross_entropy(victim_model(x + delta), y)
        loss.backward()  # expect: ZG101
        delta.data.add_(0.1 * delta.grad.sign())
