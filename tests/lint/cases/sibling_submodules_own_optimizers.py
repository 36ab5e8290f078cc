"""An actor-critic whose two heads are submodules of one container, each with its own
optimizer (openai/spinningup's VPG and PPO: ``pi_optimizer`` over ``ac.pi``,
``vf_optimizer`` over ``ac.v``). ``ac.pi(obs)`` runs the policy head only: its loss
does not write the value head's gradients. Read as a call on ``ac``, it reached both
heads: a false ZG104 on each backward when the clears come after the steps. A method of
the container (``ac.step(obs)``) may run any head, and a head an optimizer does not
cover still leaks.
"""
import torch
from torch import nn


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.pi = nn.Linear(4, 2)
        self.v = nn.Linear(4, 1)

    def both(self, obs):
        return self.pi(obs).sum() + self.v(obs).sum()


def heads_with_their_own_optimizers(batches):
    ac = ActorCritic()
    pi_opt = torch.optim.Adam(ac.pi.parameters())
    vf_opt = torch.optim.Adam(ac.v.parameters())
    for obs in batches:
        ac.pi(obs).sum().backward()
        pi_opt.step()
        pi_opt.zero_grad()
        ac.v(obs).pow(2).mean().backward()
        vf_opt.step()
        vf_opt.zero_grad()


def policy_head_never_cleared(batches):
    ac = ActorCritic()
    pi_opt = torch.optim.Adam(ac.pi.parameters())
    vf_opt = torch.optim.Adam(ac.v.parameters())
    for obs in batches:
        ac.pi(obs).sum().backward()  # expect: ZG101
        pi_opt.step()
        ac.v(obs).pow(2).mean().backward()
        vf_opt.step()
        vf_opt.zero_grad()


def a_method_of_the_container_runs_both_heads(batches):
    ac = ActorCritic()
    pi_opt = torch.optim.Adam(ac.pi.parameters())
    vf_opt = torch.optim.Adam(ac.v.parameters())
    for obs in batches:
        ac.both(obs).backward()  # expect: ZG104
        pi_opt.step()
        pi_opt.zero_grad()
        ac.v(obs).pow(2).mean().backward()
        vf_opt.step()
        vf_opt.zero_grad()
