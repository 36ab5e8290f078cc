# A ``@staticmethod`` helper called through ``self`` (ElegantRL's
# ``self.optimizer_update(self.cri_optimizer, obj_critic)``) takes no receiver: the
# first argument is its first parameter. Binding it as a method shifted every argument
# by one, so the helper's optimizer stayed unknown and a missing clear went unseen.
import torch


class AgentBuggy:
    def __init__(self):
        self.act = torch.nn.Linear(4, 2)
        self.cri = torch.nn.Linear(4, 1)
        self.act_optimizer = torch.optim.Adam(self.act.parameters())
        self.cri_optimizer = torch.optim.Adam(self.cri.parameters())

    def update_net(self, buffer):
        for _ in range(10):
            state = buffer.sample()
            self.optimizer_update(self.cri_optimizer, self.cri(state).mean())
            self.optimizer_update(self.act_optimizer, self.act(state).mean())

    @staticmethod
    def optimizer_update(optimizer, objective):
        objective.backward()  # expect: ZG101
        optimizer.step()


class AgentCorrect:
    def __init__(self):
        self.act = torch.nn.Linear(4, 2)
        self.act_optimizer = torch.optim.Adam(self.act.parameters())

    def update_net(self, buffer):
        for _ in range(10):
            state = buffer.sample()
            AgentCorrect.optimizer_update(self.act_optimizer, self.act(state).mean())
            self.optimizer_update(self.act_optimizer, self.act(state).mean())

    @staticmethod
    def optimizer_update(optimizer, objective):
        optimizer.zero_grad()
        objective.backward()
        optimizer.step()
