# A loop over several optimizers (a list, ``zip(models, optimizers)``, an index into a
# list): its variable is another optimizer on each iteration, so the previous
# iteration's step says nothing of the next one's gradients. A list nothing clears is
# still seen on the next pass of the loop around it.
import torch

models = [torch.nn.Linear(1, 1) for _ in range(4)]
optimizers = [torch.optim.Adam(model.parameters(), lr=1e-3) for model in models]


def indexed_after_clearing_all():  # FBPINN: one optimizer per subdomain
    for i in range(1000):
        for optimizer in optimizers:
            optimizer.zero_grad()
        for im in range(len(models)):
            loss = models[im](x).pow(2).mean()
            loss.backward()
            optimizers[im].step()


def zipped_after_clearing_all():
    for i in range(1000):
        for optimizer in optimizers:
            optimizer.zero_grad()
        for model, optimizer in zip(models, optimizers):
            loss = model(x).pow(2).mean()
            loss.backward()
            optimizer.step()


def same_variable_clears_and_steps(clist, minibatches):  # DomainBed's TRM
    olist = [torch.optim.SGD(c.parameters(), lr=0.1) for c in clist]
    for i in range(30):
        loss = sum(c(x).sum() for c, x in zip(clist, minibatches))
        for opt in olist:
            opt.zero_grad()
        loss.backward()
        for opt in olist:
            opt.step()


def each_cleared_after_its_step():
    for epoch in range(10):
        for model, optimizer in zip(models, optimizers):
            loss = model(x).pow(2).mean()
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()


def agents_clear_their_own(agents):
    for episode in range(100):
        for agent in agents:
            agent.optimizer.zero_grad()
            agent.loss().backward()
            agent.optimizer.step()


def indexed_never_cleared():
    for i in range(1000):
        for im in range(len(models)):
            loss = models[im](x).pow(2).mean()
            loss.backward()  # expect: ZG101
            optimizers[im].step()


def zipped_never_cleared():
    for epoch in range(10):
        for model, optimizer in zip(models, optimizers):
            loss = model(x).pow(2).mean()
            loss.backward()  # expect: ZG101
            optimizer.step()


def agents_never_cleared(agents):
    for episode in range(100):
        for agent in agents:
            agent.loss().backward()  # expect: ZG101
            agent.optimizer.step()


def element_then_the_same_optimizer_again():
    for epoch in range(10):
        for model, optimizer in zip(models, optimizers):
            optimizer.zero_grad()
            model(x).sum().backward()
            optimizer.step()
        model(x).sum().backward()  # expect: ZG101
        optimizer.step()
