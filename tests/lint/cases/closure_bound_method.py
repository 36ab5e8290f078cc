"""A bound method handed to ``step`` as its closure (pytorchbearer/torchbearer's
``Trial``: ``optimizer.step(self.closure)``, also through a lambda) runs like a closure
defined in place: on the same ``self``. One that clears is correct; one that does not
adds each batch's gradients onto those the previous step applied (ZG101). An attribute
that holds some other function is not known: silent."""

import torch


class Trial:
    def __init__(self, model, optimizer, criterion):
        self.model, self.optimizer, self.criterion = model, optimizer, criterion

    def closure(self):
        self.optimizer.zero_grad()
        loss = self.criterion(self.model(self.x), self.y)
        loss.backward()
        return loss

    def run(self, data):
        for x, y in data:
            self.x, self.y = x, y
            self.optimizer.step(self.closure)


class ForgetfulTrial:
    def __init__(self, model, optimizer, criterion):
        self.model, self.optimizer, self.criterion = model, optimizer, criterion

    def closure(self, state):
        loss = self.criterion(self.model(state["x"]), state["y"])
        loss.backward()  # expect: ZG101
        return loss

    def run(self, data):
        for x, y in data:
            state = {"x": x, "y": y}
            self.optimizer.step(lambda: self.closure(state))


class TrialWithAHeldClosure:
    def __init__(self, model, optimizer, make_closure):
        self.model, self.optimizer = model, optimizer
        self.closure = make_closure(model, optimizer)

    def run(self, data):
        for _ in data:
            self.optimizer.step(self.closure)


model = torch.nn.Linear(4, 1)
Trial(model, torch.optim.SGD(model.parameters(), lr=0.1), torch.nn.MSELoss()).run([])
