"""An optimizer wrapper of another module whose ``zero_grad()`` clears nothing (SlowFast's
``LARS`` with its forwarding line lost): the loop's ``optimizer.zero_grad()`` runs that
method, so nothing clears (see ``extract.inert_methods``)."""

from __future__ import annotations

from project_helpers import codes

WRAPPER = """\
    import torch


    class LARS:
        def __init__(self, optimizer, trust_coefficient=0.02):
            self.optim = optimizer
            self.trust_coefficient = trust_coefficient

        def zero_grad(self):
            {zero_grad}

        def step(self):
            self.optim.step()
    """
LOOP = """\
    import torch
    from optim.lars import LARS


    def train(model, loader):
        optimizer = LARS(torch.optim.SGD(model.parameters(), lr=0.1))
        for x, y in loader:
            optimizer.zero_grad()
            loss = torch.nn.functional.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()
    """


def _files(zero_grad: str) -> dict[str, str]:
    return {
        "optim/__init__.py": "",
        "optim/lars.py": WRAPPER.replace("{zero_grad}", zero_grad),
        "train.py": LOOP,
    }


def test_wrapper_of_another_module_clearing_nothing(findings):
    found = findings(files=_files("pass"))
    assert codes(found) == [("train.py", 10, "ZG101")]
    assert "runs `LARS.zero_grad` at optim/lars.py:9" in found[0][3], found[0][3]


def test_wrapper_of_another_module_forwarding_the_clear(findings):
    assert findings(files=_files("self.optim.zero_grad()")) == []


PROXIMAL = """\
    from torch.optim import Optimizer


    class PGD(Optimizer):
        def step(self, closure=None):
            for group in self.param_groups:
                for param in group["params"]:
                    # param.data.add_(-group["lr"], param.grad.data)
                    param.data = param.data.clamp(min=0)
    """
PRO_GNN = """\
    import torch
    from optim.pgd import PGD


    def train_adj(estimator, adj, epochs):
        optimizer_adj = torch.optim.SGD(estimator.parameters(), lr=0.01)
        optimizer_l1 = PGD(estimator.parameters(), dict(lr=0.01))
        for epoch in range(epochs):
            optimizer_adj.zero_grad()
            torch.norm(estimator(adj) - adj).backward()
            optimizer_adj.step()
            optimizer_l1.zero_grad()
            optimizer_l1.step()
    """


def test_proximal_optimizer_of_another_module_is_no_step(findings):
    # DSE-MSU/DeepRobust's Pro-GNN: the class's own text names no gradient outside a
    # comment, so the index never marks it as touching one; it is read all the same
    files = {"optim/__init__.py": "", "optim/pgd.py": PROXIMAL, "train.py": PRO_GNN}
    assert findings(files=files) == []
