"""Test modules define ``class Trainer`` inside several test functions: each is its own
class, and a missing clear in one must not hide behind the other (issue 13, shape 10)."""

import torch


def test_correct_trainer(loader):
    class Trainer:
        def __init__(self, model):
            self.model = model
            self.opt = torch.optim.SGD(model.parameters(), lr=0.1)

        def step(self, x):
            self.opt.zero_grad()
            self.model(x).sum().backward()
            self.opt.step()

    trainer = Trainer(Net())
    for x in loader:
        trainer.step(x)


def test_trainer_without_clear(loader):
    class Trainer:
        def __init__(self, model):
            self.model = model
            self.opt = torch.optim.SGD(model.parameters(), lr=0.1)

        def step(self, x):
            self.model(x).sum().backward()  # expect: ZG101
            self.opt.step()

    trainer = Trainer(Net())
    for x in loader:
        trainer.step(x)


def test_correct_again(loader):
    class Trainer:
        def __init__(self, model):
            self.model = model
            self.opt = torch.optim.SGD(model.parameters(), lr=0.1)

        def step(self, x):
            self.model(x).sum().backward()
            self.opt.step()
            self.opt.zero_grad()

    trainer = Trainer(Net())
    for x in loader:
        trainer.step(x)
