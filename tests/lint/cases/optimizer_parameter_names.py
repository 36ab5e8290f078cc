# An optimizer handed to a function is known by its name; FedAvg's client update
# (WHDY/FedAvg, use_pytorch/clients.py) calls it ``opti``.


def local_update(net, loader, loss_fn, opti):
    for data, label in loader:
        loss = loss_fn(net(data), label)
        loss.backward()  # expect: ZG101
        opti.step()


def local_update_fixed(net, loader, loss_fn, opti):
    for data, label in loader:
        opti.zero_grad()
        loss = loss_fn(net(data), label)
        loss.backward()
        opti.step()


def not_an_optimizer(net, loader, loss_fn, option):
    # ``option`` is not ``opti``: its step is unknown, so nothing is judged
    for data, label in loader:
        loss = loss_fn(net(data), label)
        loss.backward()
        option.step()
