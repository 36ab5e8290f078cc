# A hand-written update over a module's parameters, after the clear of an optimizer whose
# parameters the file does not know (PFLlib's clients: the base class of another module
# builds ``self.optimizer``): the clear may cover them, so nothing is known to be missed.
# Without any clear the update is still reported.
import torch

from fl.clients import ClientBase


class ClientAPPLE(ClientBase):
    def train(self, loader, global_model, lr):
        for x, y in loader:
            self.optimizer.zero_grad()
            loss = self.loss(self.model(x), y)
            loss.backward()
            for param_g, param in zip(global_model.parameters(), self.model.parameters()):
                param_g.data = param_g - lr * param.grad


def never_cleared(model, loader, lr):
    for x, y in loader:
        loss = model(x).sum()
        loss.backward()  # expect: ZG101
        for param in model.parameters():
            param.data -= lr * param.grad
