# ``xm.optimizer_step(optimizer)`` (torch_xla) steps the optimizer it is handed. A
# method of the same name on anything else is unknown: OpenRLHF's strategy wraps a
# DeepSpeed engine whose ``step()`` clears for you (``strategy.optimizer_step(opt,
# model, scheduler)`` calls ``model.step()``), so reading it as ``opt.step()`` reported a
# false missing clear.
import torch
import torch_xla.core.xla_model as xm


def xla_never_cleared(model, loader, optimizer):
    for x in loader:
        model(x).sum().backward()  # expect: ZG101
        xm.optimizer_step(optimizer)


def xla_cleared(model, loader, optimizer):
    for x in loader:
        optimizer.zero_grad()
        model(x).sum().backward()
        xm.optimizer_step(optimizer)


class DPOTrainer:
    def __init__(self, model, strategy, optim, train_dataloader, scheduler):
        self.strategy = strategy
        self.model = model
        self.optimizer = optim
        self.scheduler = scheduler
        self.train_dataloader = train_dataloader

    def fit(self, epochs):
        for epoch in range(epochs):
            for batch in self.train_dataloader:
                loss = self.model(batch).mean()
                self.strategy.backward(loss, self.model, self.optimizer)
                self.strategy.optimizer_step(self.optimizer, self.model, self.scheduler)
