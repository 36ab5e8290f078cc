"""A wrapper deriving from ``torch.optim.Optimizer`` that builds the real optimizer in an
attribute and whose ``step()`` delegates to it (adamian98/pulse's ``SphericalOptimizer``:
``self.opt = optimizer(params)``, ``step()`` runs ``self.opt.step()`` and renormalises).
The loop clears the inner optimizer (``opt.opt.zero_grad()``) and steps the wrapper: the
same tensors. What a clear of an optimizer's attribute clears of the optimizer itself is
not known, so the wrapper's status is unknown after it: no finding. A loop that never
clears either stays flagged."""
import torch
from torch.optim import Optimizer


class SphericalOptimizer(Optimizer):
    def __init__(self, optimizer, params, **kwargs):
        self.opt = optimizer(params, **kwargs)
        self.params = params

    @torch.no_grad()
    def step(self, closure=None):
        loss = self.opt.step(closure)
        for param in self.params:
            param.data.div_(param.norm())
        return loss


def project(synthesis, target, steps=100):
    latent = torch.randn((1, 18, 512), requires_grad=True)
    opt = SphericalOptimizer(torch.optim.Adam, [latent], lr=0.4)
    for j in range(steps):
        opt.opt.zero_grad()
        loss = ((synthesis(latent) - target) ** 2).mean()
        loss.backward()
        opt.step()


def project_without_clear(synthesis, target, steps=100):
    latent = torch.randn((1, 18, 512), requires_grad=True)
    opt = SphericalOptimizer(torch.optim.Adam, [latent], lr=0.4)
    for j in range(steps):
        loss = ((synthesis(latent) - target) ** 2).mean()
        loss.backward()  # expect: ZG101
        opt.step()


def wrapper_cleared_inner_stepped(synthesis, target, steps=100):
    latent = torch.randn((1, 18, 512), requires_grad=True)
    opt = SphericalOptimizer(torch.optim.Adam, [latent], lr=0.4)
    for j in range(steps):
        opt.zero_grad()
        loss = ((synthesis(latent) - target) ** 2).mean()
        loss.backward()
        opt.opt.step()
