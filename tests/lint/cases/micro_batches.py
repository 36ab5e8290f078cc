import torch

optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

def loop_1():
    for batch in loader:
        optimizer.zero_grad()
        for chunk in batch.chunk(4):
            loss = model(chunk) / 4
            loss.backward()
        optimizer.step()

def loop_2():
    for batch in loader:
        for chunk in batch.chunk(4):
            loss = model(chunk) / 4
            loss.backward()
        optimizer.step()
        optimizer.zero_grad()

def loop_3():
    for batch in loader:
        for chunk in batch.chunk(4):
            optimizer.zero_grad()  # expect: ZG103
            loss = model(chunk) / 4
            loss.backward()
        optimizer.step()

def loop_4():
    for batch in loader:
        for chunk in batch.chunk(4):
            loss = model(chunk) / 4
            loss.backward()  # expect: ZG101
        optimizer.step()
