# A function that builds its optimizer over the module it is handed and clears that
# module (`net.zero_grad()`), called with different modules from loops elsewhere in the
# file (federated clients training copies of a global model). The clear covers the
# optimizer under every binding of `net`: no finding. The same function without the
# clear is flagged.
import copy

import torch


def local_train(net, loader):
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
    for images, labels in loader:
        net.zero_grad()
        loss = criterion(net(images), labels)
        loss.backward()
        optimizer.step()
    return net.state_dict()


class LocalUpdate:
    def train(self, net):
        optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
        for images, labels in self.loader:
            net.zero_grad()
            loss = self.criterion(net(images), labels)
            loss.backward()
            optimizer.step()
        return net.state_dict()


def local_train_never_cleared(model, loader):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for images, labels in loader:
        loss = criterion(model(images), labels)
        loss.backward()  # expect: ZG101
        opt.step()


net_glob = Net()
for round_index in range(10):
    weights = []
    for client in clients:
        weights.append(local_train(copy.deepcopy(net_glob), client.loader))
        local = LocalUpdate()
        weights.append(local.train(net=copy.deepcopy(net_glob).to("cpu")))
        local_train_never_cleared(copy.deepcopy(net_glob), client.loader)
    net_glob.load_state_dict(average(weights))
