"""A condition joined with ``and`` is false on a path that took one of its parts as false:
``if learn_eta: eta_opt.zero_grad()`` before the backward, then ``if learn_eta and i %
every == 0: eta_opt.step()`` steps only on paths where the clear ran (DPPO's learned
noise level: a false ZG104 in session 26's probe E). A step under a condition that does
not imply the clear's is still judged on the paths that skip it."""

import torch
from torch import nn

actor, eta = nn.Linear(4, 2), nn.Linear(4, 1)


def clear_implied_by_the_step(data, learn_eta: bool, every: int):
    actor_opt = torch.optim.SGD(actor.parameters(), lr=0.1)
    eta_opt = torch.optim.SGD(eta.parameters(), lr=0.1)
    for i, x in enumerate(data):
        loss = (actor(x).sum() * eta(x).sum()) ** 2
        actor_opt.zero_grad()
        if learn_eta:
            eta_opt.zero_grad()
        loss.backward()
        actor_opt.step()
        if learn_eta and i % every == 0:
            eta_opt.step()


def clear_not_implied(data, learn_eta: bool, tune_eta: bool, every: int):
    actor_opt = torch.optim.SGD(actor.parameters(), lr=0.1)
    noise_opt = torch.optim.SGD(eta.parameters(), lr=0.1)
    for i, x in enumerate(data):
        loss = (actor(x).sum() * eta(x).sum()) ** 2
        actor_opt.zero_grad()
        if learn_eta:
            noise_opt.zero_grad()
        loss.backward()  # expect: ZG104
        actor_opt.step()
        if tune_eta and i % every == 0:
            noise_opt.step()
