import torch

optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

def loop_1():
    for i, batch in enumerate(loader):
        if i % 10 == 0:
            optimizer.zero_grad()
        model(batch).backward()  # expect: ZG101
        optimizer.step()

def loop_2():
    for i, batch in enumerate(loader):
        optimizer.zero_grad()
        model(batch).backward()
        optimizer.step()
        if i % 10 == 0:
            log(i)

def loop_3():
    for batch in loader:
        model(batch).backward()
        if use_clipping:
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        optimizer.zero_grad()

def loop_4():
    for batch in loader:
        loss = model(batch)
        if loss is None:
            continue
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
