"""A loss computed by a method of a model of the file (``g.get_comb_pred(rep, conf)``)
reaches what that method returns: ``self.conf_lin(conf_x).detach()`` inside it cuts
``conf_lin`` off the graph, as the same ``.detach()`` written in the loop does
(Wuyxin/DIR-GNN's ``molhiv_dir.py``). Read as a call of the whole model, the main loss
wrote ``conf_lin``'s gradients, which ``conf_opt`` steps without a clear before its own
backward: a false ZG104 (session 27's GNN probe, once a redundant clear was deleted).
A method whose result keeps the submodule in the graph still leaks.
"""

import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 4)
        self.causal_lin = nn.Linear(4, 1)
        self.conf_lin = nn.Linear(4, 1)

    def get_comb_pred(self, causal_x, conf_x):
        conf_pred = self.conf_lin(conf_x).detach()
        return torch.sigmoid(conf_pred) * self.causal_lin(causal_x)

    def get_joint_pred(self, causal_x, conf_x):
        return self.conf_lin(conf_x) * self.causal_lin(causal_x)


def train(loader):
    g = Net()
    model_optimizer = torch.optim.Adam(g.parameters(), lr=1e-3)
    conf_opt = torch.optim.Adam(g.conf_lin.parameters(), lr=1e-3)
    for x in loader:
        rep = g.body(x)
        conf_loss = g.conf_lin(rep.detach()).pow(2).mean()
        main_loss = g.get_comb_pred(rep, rep.detach()).pow(2).mean()
        conf_loss.backward()
        conf_opt.step()
        model_optimizer.zero_grad()
        main_loss.backward()
        model_optimizer.step()


def train_joint(loader):
    g = Net()
    model_optimizer = torch.optim.Adam(g.parameters(), lr=1e-3)
    conf_opt = torch.optim.Adam(g.conf_lin.parameters(), lr=1e-3)
    for x in loader:
        rep = g.body(x)
        conf_loss = g.conf_lin(rep.detach()).pow(2).mean()
        main_loss = g.get_joint_pred(rep, rep.detach()).pow(2).mean()
        conf_loss.backward()
        conf_opt.step()
        model_optimizer.zero_grad()
        main_loss.backward()  # expect: ZG104
        model_optimizer.step()
