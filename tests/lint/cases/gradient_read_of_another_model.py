# A helper reading the gradients of the module it is handed (MADDPG's
# ``average_gradients(agent.policy)``) reads no gradients of an optimizer whose modules
# are unknown (the critic's, which the policy loss also reached); a read of gradients an
# optimizer over that very module applied is still one.
import torch
import torch.distributed as dist


def average_gradients(model):
    size = float(dist.get_world_size())
    for param in model.parameters():
        dist.all_reduce(param.grad.data, op=dist.reduce_op.SUM, group=0)
        param.grad.data /= size


class MADDPG:
    def __init__(self, agents):
        self.agents = agents

    def update(self, obs, acs, target, agent_i):
        agent = self.agents[agent_i]
        agent.critic_optimizer.zero_grad()
        vf_loss = ((agent.critic(torch.cat((obs, acs), dim=1)) - target) ** 2).mean()
        vf_loss.backward()
        average_gradients(agent.critic)
        agent.critic_optimizer.step()

        agent.policy_optimizer.zero_grad()
        pol_loss = -agent.critic(torch.cat((obs, agent.policy(obs)), dim=1)).mean()
        pol_loss.backward()
        average_gradients(agent.policy)
        agent.policy_optimizer.step()


def prune_after_training(loader):
    model = torch.nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x in loader:
        optimizer.zero_grad()
        model(x).sum().backward()
        optimizer.step()
    model(next(iter(loader))).sum().backward()  # expect: ZG101
    return [p.grad.abs() for p in model.parameters()]
