import torch

model = Net()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def train_step(batch):
    loss = model(batch).mean()
    loss.backward()  # expect: ZG101
    optimizer.step()


def train_step_clearing(batch):
    optimizer.zero_grad()
    loss = model(batch).mean()
    loss.backward()
    optimizer.step()


def backward_and_step(opt, batch):
    loss = model(batch).mean()
    loss.backward()
    opt.step()


def helper_called_elsewhere(batch):
    # callers live in another file and may clear: not judged alone
    loss = model(batch).mean()
    loss.backward()
    optimizer.step()


def run_buggy(loader):
    for batch in loader:
        train_step(batch)


def run_correct(loader):
    for batch in loader:
        train_step_clearing(batch)


def run_helper_cleared_by_caller(loader):
    for batch in loader:
        optimizer.zero_grad()
        backward_and_step(optimizer, batch)
