import torch

optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

def loop_1():
    for batch in loader:
        loss = model(batch)
        loss.backward()
        optimizer.zero_grad()
        optimizer.step()  # expect: ZG102

def loop_2():
    for batch in loader:
        optimizer.zero_grad()
        optimizer.step()  # expect: ZG102
        model(batch).backward()

def loop_3():
    for batch in loader:
        optimizer.step()
        optimizer.zero_grad()
        model(batch).backward()

def loop_4():
    for batch in loader:
        optimizer.zero_grad()
        loss = model(batch)
        loss.backward()
        optimizer.step()
