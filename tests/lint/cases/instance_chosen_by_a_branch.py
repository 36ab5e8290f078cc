"""An agent whose class a branch chooses (sfujim/TD3's ``main.py``: ``if args.policy ==
"TD3": policy = TD3.TD3(...) elif ...: policy = DDPG.DDPG(...)``, then
``policy.train(replay_buffer)`` once per step). Each branch is one configuration of the
run, and the loop runs the chosen class's ``train`` on every iteration: the loop is
judged once per class the branches build (before, only the first branch's class was
followed, so a bug in the other classes went unreported). Assignments that are not in
different arms of one ``if`` (a rebinding) are no such choice: the first one is read,
as before.
"""
import torch


class Clears:
    def __init__(self, net):
        self.net = net
        self.opt = torch.optim.Adam(net.parameters())

    def train(self, x):
        self.opt.zero_grad()
        self.net(x).mean().backward()
        self.opt.step()


class NeverClears:
    def __init__(self, net):
        self.net = net
        self.opt = torch.optim.Adam(net.parameters())

    def train(self, x):
        self.net(x).mean().backward()  # expect: ZG101
        self.opt.step()


def main(args, net, batches):
    if args.policy == "clears":
        policy = Clears(net)
    elif args.policy == "never":
        policy = NeverClears(net)
    for x in batches:
        policy.train(x)


def main_with_good_classes_only(args, net, batches):
    if args.policy == "a":
        policy = Clears(net)
    else:
        policy = Clears(torch.nn.Linear(2, 2))
    for x in batches:
        policy.train(x)
