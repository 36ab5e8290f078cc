import gym
import torch

env = gym.make("CartPole-v1")
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=100)

def loop_1():
    for episode in range(1000):
        state = env.reset()
        log_probs, rewards = [], []
        done = False
        while not done:
            action, log_prob = policy.act(state)
            state, reward, done, _ = env.step(action)
            log_probs.append(log_prob)
            rewards.append(reward)
        loss = policy_loss(log_probs, rewards)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        scheduler.step()

def loop_2():
    for episode in range(1000):
        state = env.reset()
        done = False
        while not done:
            state, reward, done, _ = env.step(policy.act(state))
        loss = policy_loss()
        loss.backward()  # expect: ZG101
        optimizer.step()
        scheduler.step()
        lr_scheduler.step()
