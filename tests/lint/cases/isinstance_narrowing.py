def train_epoch(net, train_iter, loss, updater):
    for X, y in train_iter:
        l = loss(net(X), y)
        if isinstance(updater, torch.optim.Optimizer):
            updater.zero_grad()
            l.mean().backward()
            updater.step()
        else:
            l.sum().backward()
            updater(X.shape[0])


def train_epoch_leaky(net, train_iter, loss, updater):
    for X, y in train_iter:
        l = loss(net(X), y)
        if isinstance(updater, torch.optim.Optimizer):
            l.mean().backward()  # expect: ZG101
            updater.step()
