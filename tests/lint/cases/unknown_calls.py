import torch

optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

def loop_1():
    for batch in loader:
        model(batch).backward()
        optimizer.step()
        reset_gradients(model)

def loop_2():
    for batch in loader:
        loss = model(batch)
        loss.backward()
        optimizer.step()
        callbacks.on_step_end(optimizer)

def loop_3():
    for batch in loader:
        loss = model(batch)
        loss.backward()  # expect: ZG101
        optimizer.step()
        print(loss.item())


def train(model, optimizer, loader):
    for batch in loader:
        optimizer.zero_grad()
        model(batch).backward()
        optimizer.step()


def train_without_clear(model, optimizer, loader):
    for batch in loader:
        model(batch).backward()  # expect: ZG101
        optimizer.step()


def train_annotated(model, opt: torch.optim.Optimizer, loader):
    for batch in loader:
        model(batch).backward()  # expect: ZG101
        opt.step()
