# A wrapper (NoamOpt) stores the optimizer it is passed as ``self.optimizer``; the
# module-level variable holding the wrapper is also named ``optimizer``. The attribute is
# what the constructor's callers pass, not that variable (which would make the
# wrapper's ``self.optimizer.step()`` call itself and hide every missing clear).
import torch


class NoamOpt:
    def __init__(self, optimizer, warmup=4000):
        self.optimizer = optimizer
        self.warmup = warmup
        self._step = 0

    def step(self):
        self._step += 1
        self.optimizer.step()

    def zero_grad(self):
        self.optimizer.zero_grad()


model = torch.nn.Linear(10, 1)
optimizer = NoamOpt(torch.optim.Adam(model.parameters(), lr=0))


def cleared(loader):
    for x, y in loader:
        optimizer.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()


def never_cleared(loader):
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()  # expect: ZG101
        optimizer.step()
