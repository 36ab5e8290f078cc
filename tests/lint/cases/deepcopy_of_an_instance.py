"""A deep copy of an instance of a class of the file (``model_naive =
copy.deepcopy(model)``, continual-learning's notebooks) is an instance of that class:
its methods are the class's, its parameters (and the optimizer the copy holds) its own."""

import copy
from copy import deepcopy

import torch
from torch import nn
from torch.nn import functional as F


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(10, 2)
        self.optimizer = torch.optim.Adam(self.parameters())

    def train_a_batch(self, x, y):
        loss = F.cross_entropy(self.fc(x), y)
        loss.backward()  # expect: ZG101
        self.optimizer.step()


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(10, 10)
        self.optimizer = torch.optim.Adam(self.parameters())

    def train_a_batch(self, x, y=None):
        self.optimizer.zero_grad()
        loss = ((self.fc(x) - x) ** 2).mean()
        loss.backward()
        self.optimizer.step()


def train_copy(loader):
    model = Classifier()
    model_naive = copy.deepcopy(model)
    for x, y in loader:
        model_naive.train_a_batch(x, y)


def train_vae_copy(loader):
    vae = VAE()
    twin = deepcopy(vae)
    for x, y in loader:
        twin.train_a_batch(x)
