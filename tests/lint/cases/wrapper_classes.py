import torch


class OptimizerWrapper:
    def __init__(self, params, lr):
        self.optimizer = torch.optim.Adam(params, lr=lr)

    def zero_grad(self):
        self.optimizer.zero_grad()

    def step(self):
        self.optimizer.step()


class NoClearWrapper:
    def __init__(self, params, lr):
        self.optimizer = torch.optim.Adam(params, lr=lr)

    def zero_grad(self):
        pass

    def step(self):
        self.optimizer.step()


wrapped = OptimizerWrapper(model.parameters(), 1e-3)
for batch in loader:
    wrapped.zero_grad()
    model(batch).backward()
    wrapped.step()

broken = NoClearWrapper(model.parameters(), 1e-3)
for batch in loader:
    broken.zero_grad()
    model(batch).backward()  # expect: ZG101
    broken.step()
