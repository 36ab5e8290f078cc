# deepxde's ``Model._compile_pytorch`` defines ``train_step`` inside itself, stores it as
# ``self.train_step`` and another method calls it once per iteration: calling the
# attribute runs that nested function (its ``self`` is the instance).
import torch


class Model:
    def __init__(self, net):
        self.net = net

    def compile(self, lr):
        self.opt = torch.optim.Adam(self.net.parameters(), lr=lr)

        def train_step(x, y):
            loss = ((self.net(x) - y) ** 2).mean()
            loss.backward()  # expect: ZG101
            self.opt.step()

        self.train_step = train_step

    def train(self, iterations, x, y):
        for _ in range(iterations):
            self.train_step(x, y)


class ClearedModel:
    def __init__(self, net):
        self.net = net

    def compile(self, lr):
        self.opt = torch.optim.Adam(self.net.parameters(), lr=lr)

        def train_step(x, y):
            self.opt.zero_grad()
            ((self.net(x) - y) ** 2).mean().backward()
            self.opt.step()

        self.train_step = train_step

    def train(self, iterations, x, y):
        for _ in range(iterations):
            self.train_step(x, y)
