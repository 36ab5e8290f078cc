"""Faithful miniatures of real trainers' optimizer code, for the false-alarm tests.

``SAM`` follows davda54/sam (MIT) ``sam.py``: ``first_step`` perturbs the weights with
the gradient and clears, ``second_step`` restores them and calls the base step;
``step(closure)`` runs both around the closure.
"""

from __future__ import annotations

import torch


class SAM(torch.optim.Optimizer):
    def __init__(self, params, base_optimizer, rho=0.05, **kwargs):
        defaults = dict(rho=rho, **kwargs)
        super().__init__(params, defaults)
        self.base_optimizer = base_optimizer(self.param_groups, **kwargs)
        self.param_groups = self.base_optimizer.param_groups
        self.defaults.update(self.base_optimizer.defaults)

    @torch.no_grad()
    def first_step(self, zero_grad=False):
        grad_norm = self._grad_norm()
        for group in self.param_groups:
            scale = group["rho"] / (grad_norm + 1e-12)
            for p in group["params"]:
                if p.grad is None:
                    continue
                self.state[p]["old_p"] = p.data.clone()
                p.add_(p.grad * scale.to(p))
        if zero_grad:
            self.zero_grad()

    @torch.no_grad()
    def second_step(self, zero_grad=False):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                p.data = self.state[p]["old_p"]
        self.base_optimizer.step()
        if zero_grad:
            self.zero_grad()

    @torch.no_grad()
    def step(self, closure=None):
        closure = torch.enable_grad()(closure)
        self.first_step(zero_grad=True)
        closure()
        self.second_step()

    def _grad_norm(self):
        grads = [
            p.grad.norm(p=2) for g in self.param_groups for p in g["params"] if p.grad is not None
        ]
        return torch.norm(torch.stack(grads), p=2)


class ClosureThenSuper(torch.optim.AdamW):
    """Hugging Face-style: ``@torch.no_grad()`` step that runs the closure, then the base step."""

    @torch.no_grad()
    def step(self, closure=None):
        if closure is not None:
            with torch.enable_grad():
                closure()
        return super().step()
