# A class defined again at module level (a notebook rebuilds ``Learner`` cell by cell):
# each definition's methods call their own siblings through ``self``, and a class
# derived afterwards derives from the latest definition.
import torch
from torch import optim


class Learner:
    def __init__(self, model, lr):
        self.model, self.lr = model, lr

    def one_batch(self, x, y):
        loss = ((self.model(x) - y) ** 2).mean()
        loss.backward()
        self.opt.step()
        self.opt.zero_grad()

    def fit(self, data):
        self.opt = optim.SGD(self.model.parameters(), lr=self.lr)
        for x, y in data:
            self.one_batch(x, y)


Learner(torch.nn.Linear(4, 4), 0.1).fit(data)


class Learner:
    def __init__(self, model, lr):
        self.model, self.lr = model, lr

    def one_batch(self, x, y):
        loss = ((self.model(x) - y) ** 2).mean()
        loss.backward()  # expect: ZG101
        self.opt.step()

    def fit(self, data):
        self.opt = optim.SGD(self.model.parameters(), lr=self.lr)
        for x, y in data:
            self.one_batch(x, y)


class Learner:
    def __init__(self, model, lr):
        self.model, self.lr = model, lr

    def step(self):
        self.opt.step()

    def zero_grad(self):
        self.opt.zero_grad()

    def one_batch(self, x, y):
        self.loss = ((self.model(x) - y) ** 2).mean()
        self.backward()  # expect: ZG101 (as a ForgetfulLearner, whose zero_grad does nothing)
        self.step()
        self.zero_grad()

    def fit(self, data):
        self.opt = optim.SGD(self.model.parameters(), lr=self.lr)
        for x, y in data:
            self.one_batch(x, y)


class TrainLearner(Learner):
    def backward(self):
        self.loss.backward()


class ForgetfulLearner(Learner):
    def zero_grad(self):
        pass

    def backward(self):
        self.loss.backward()
