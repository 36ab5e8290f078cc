"""An optimizer a factory returns in a tuple (``optimizer, scheduler =
make_optimizer_and_scheduler(policy)``, lerobot's test artifacts) is a new optimizer at
every call, like one built in place: what the previous call's optimizer applied says
nothing of it (a false ZG101 on a deleted, redundant clear in session 26's probe E). A
missing clear in a loop that steps the returned optimizer is still found."""

import torch
from torch import nn


def make_optimizer_and_scheduler(policy):
    opt = torch.optim.Adam(policy.parameters(), lr=1e-2)
    return opt, None


def get_policy_stats(cfg):
    policy = nn.Linear(4, 2)
    optimizer, _ = make_optimizer_and_scheduler(policy)
    loss = policy(torch.randn(8, 4)).pow(2).mean()
    loss.backward()
    optimizer.step()
    return {k: p.detach().mean() for k, p in policy.named_parameters()}


def train(policy, loader):
    optimizer, scheduler = make_optimizer_and_scheduler(policy)
    for x in loader:
        loss = policy(x).pow(2).mean()
        loss.backward()  # expect: ZG101
        optimizer.step()


if __name__ == "__main__":
    for cfg in ("a", "b"):
        get_policy_stats(cfg)
