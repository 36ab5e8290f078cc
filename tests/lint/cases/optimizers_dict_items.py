# Optimizers kept in a dict and stepped or cleared through ``.items()`` (pytorch-metric-
# learning's trainers: ``for k, v in self.optimizers.items(): v.step()``): the loop's
# second target is each optimizer, as it is for ``.values()``.
import torch


class BaseTrainer:
    def __init__(self, models, optimizers, loss_func, batches):
        self.models = models
        self.optimizers = optimizers
        self.loss_func = loss_func
        self.batches = batches

    def never_cleared(self):
        for data, labels in self.batches:
            embeddings = self.models["embedder"](self.models["trunk"](data))
            self.loss_func(embeddings, labels).backward()  # expect: ZG101
            self.step_optimizers()

    def cleared(self):
        for data, labels in self.batches:
            self.zero_grad()
            embeddings = self.models["embedder"](self.models["trunk"](data))
            self.loss_func(embeddings, labels).backward()
            self.step_optimizers()

    def zero_grad(self):
        for name, optimizer in self.optimizers.items():
            optimizer.zero_grad()

    def step_optimizers(self):
        for k, v in self.optimizers.items():
            v.step()
