import torch

optimizer = torch.optim.Adam(model.parameters())


def with_try_finally(loader):
    for batch in loader:
        try:
            loss = model(batch)
            loss.backward()
            optimizer.step()
        finally:
            optimizer.zero_grad()


def oom_retry(loader):
    for batch in loader:
        try:
            loss = model(batch)
            loss.backward()
        except RuntimeError:
            optimizer.zero_grad()
            continue
        optimizer.step()
        optimizer.zero_grad()


def while_loop(loader):
    it = iter(loader)
    step = 0
    while step < 100:
        optimizer.zero_grad()
        model(next(it)).backward()
        optimizer.step()
        step += 1


def while_true_break(loader):
    it = iter(loader)
    while True:
        batch = next(it, None)
        if batch is None:
            break
        model(batch).backward()  # expect: ZG101
        optimizer.step()


def break_and_continue(loader):
    for batch in loader:
        optimizer.zero_grad()
        if batch is None:
            continue
        loss = model(batch)
        if not torch.isfinite(loss):
            continue
        loss.backward()
        optimizer.step()
        if done():
            break


def early_return(loader):
    for batch in loader:
        loss = model(batch)
        loss.backward()
        optimizer.step()
        return loss
