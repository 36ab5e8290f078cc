"""An optimizer over submodules reached through an alias of the model (THUDM/P-tuning's
``cur_model = self.model.module if hasattr(self.model, "module") else self.model`` and
``embedding_optimizer`` over ``cur_model.lstm_head``): ``model.zero_grad()`` clears those
submodules, whichever name they are reached by. Was a false ZG101; a loop whose clear
misses the submodule stays flagged."""
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 4)
        self.head = nn.Linear(4, 1)


def cleared_through_the_model(loader):
    model = Net()
    cur_model = model
    head_optimizer = torch.optim.SGD(cur_model.head.parameters(), lr=0.1)
    for batch in loader:
        loss = model.head(model.body(batch)).sum()
        loss.backward()
        head_optimizer.step()
        model.zero_grad()


class Wrapper:
    def __init__(self, model):
        self.model = model

    def train(self, loader):
        cur_model = self.model.module if hasattr(self.model, "module") else self.model
        embedding_optimizer = torch.optim.SGD(cur_model.head.parameters(), lr=0.1)
        for batch in loader:
            loss = cur_model.head(cur_model.body(batch)).sum()
            loss.backward()
            embedding_optimizer.step()
            self.model.zero_grad()


def cleared_elsewhere(loader):
    model = Net()
    other = Net()
    cur_model = model
    optimizer = torch.optim.SGD(cur_model.head.parameters(), lr=0.1)
    for batch in loader:
        loss = model.head(model.body(batch)).sum()
        loss.backward()  # expect: ZG101
        optimizer.step()
        other.zero_grad()
