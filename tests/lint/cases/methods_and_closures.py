import torch


class Trainer:
    def __init__(self, model):
        self.model = model
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)

    def training_step(self, batch):
        loss = self.model(batch).mean()
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()

    def fit(self, loader, epochs):
        for _ in range(epochs):
            for batch in loader:
                self.training_step(batch)


class LeakyTrainer:
    def __init__(self, model):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=0.1)

    def step(self, batch):
        loss = self.model(batch).mean()
        loss.backward()  # expect: ZG101
        self.opt.step()

    def fit(self, loader):
        for batch in loader:
            self.step(batch)


def train_with_nested_function(model, loader):
    optimizer = torch.optim.Adam(model.parameters())

    def one_batch(batch):
        optimizer.zero_grad()
        model(batch).mean().backward()
        optimizer.step()

    for batch in loader:
        one_batch(batch)


def train_with_leaky_closure(model, loader):
    optimizer = torch.optim.Adam(model.parameters())

    def one_batch(batch):
        model(batch).mean().backward()  # expect: ZG101
        optimizer.step()

    for batch in loader:
        one_batch(batch)
