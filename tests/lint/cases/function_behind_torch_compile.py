# A function compiled with torch.compile runs the same Python when called: the loop that
# calls it is judged with what it does (open_clip's train.py compiles the step its
# factory makes).
import torch


def train_step(model, optimizer, batch):
    loss = model(batch).sum()
    loss.backward()  # expect: ZG101
    optimizer.step()
    return loss


def compiled_alias(model, optimizer, loader):
    step_fn = torch.compile(train_step)
    for batch in loader:
        step_fn(model, optimizer, batch)


def make_step(model, optimizer):
    def step(batch):
        loss = model(batch).sum()
        loss.backward()  # expect: ZG101
        optimizer.step()
        return loss

    return step


def compiled_factory(model, optimizer, loader):
    step = torch.compile(make_step(model, optimizer), fullgraph=False)
    for batch in loader:
        step(batch)


def clearing_step(model, optimizer, batch):
    optimizer.zero_grad()
    loss = model(batch).sum()
    loss.backward()
    optimizer.step()


def compiled_and_correct(model, optimizer, loader):
    step_fn = torch.compile(clearing_step)
    for batch in loader:
        step_fn(model, optimizer, batch)


def compiled_factory_cleared_in_loop(model, optimizer, loader):
    step = torch.compile(make_step(model, optimizer))
    for batch in loader:
        optimizer.zero_grad()
        step(batch)
