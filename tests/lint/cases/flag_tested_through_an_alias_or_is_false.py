"""A run-constant flag tested in a method that each iteration calls, written the ways
facebookresearch/CodeGen's ``Trainer.optimize`` writes it: ``params = self.params`` then
``if params.fp16 is False:``, the method reached through ``trainer.clm_step(x)``. Each
branch is correct on its own (clear, backward, step; or backward, step, clear); the
flag cannot change between two calls, so the step of one branch is never followed by
the backward of the other (a false ZG101 before: ``is False`` was not read as a flag,
the local alias was not the attribute, and ``self`` of a call on ``trainer`` was not
the caller's ``trainer``).

A branch that never clears is still reported."""

import torch


class Trainer:
    def __init__(self, model, params):
        self.model = model
        self.params = params
        self.optimizer = torch.optim.Adam(model.parameters())

    def optimize(self, loss):
        params = self.params
        if params.fp16 is False:
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
        else:
            loss.backward()
            self.optimizer.step()
            self.optimizer.zero_grad()

    def clm_step(self, x):
        self.optimize(self.model(x).sum())


def main(model, params, data):
    trainer = Trainer(model, params)
    for x in data:
        trainer.clm_step(x)


def train(model, optimizer, batches, fp16):
    for x in batches:
        loss = model(x).sum()
        if fp16 is False:
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        else:
            loss.backward()  # expect: ZG101
            optimizer.step()
