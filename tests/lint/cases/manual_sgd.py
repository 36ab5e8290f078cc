import torch

w = torch.randn(3, requires_grad=True)
b = torch.zeros(1, requires_grad=True)

def loop_1():
    for x, y in data:
        loss = ((x @ w + b - y) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            w -= lr * w.grad
            b -= lr * b.grad
            w.grad.zero_()
            b.grad.zero_()

def loop_2():
    for x, y in data:
        loss = ((x @ w + b - y) ** 2).mean()
        loss.backward()  # expect: ZG101
        with torch.no_grad():
            w -= lr * w.grad
            b -= lr * b.grad
            w.grad = None

def loop_3():
    for x, y in data:
        loss = model(x, y)
        loss.backward()
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-lr)
        model.zero_grad()

def loop_4():
    for x, y in data:
        loss = model(x, y)
        loss.backward()  # expect: ZG101
        for p in model.parameters():
            p.data.add_(p.grad.data, alpha=-lr)

def loop_5():
    for x, y in data:
        loss = model(x, y)
        loss.backward()
        with torch.no_grad():
            for p in model.parameters():
                p -= lr * p.grad
                p.grad = None
