"""A parameter the function both clears (``.zero_grad()``) and steps (``.step()``) holds an
optimizer, whatever its name: d2l's ``trainer`` / ``trainer_D`` / ``trainer_G`` (the
"Dive into Deep Learning" book's helpers, copied widely), an ``updater``, a ``solver``.
No other object PyTorch code calls has both methods (a module has ``zero_grad`` only; a
scheduler, an environment or a scaler has ``step`` only), so the pair is positive
knowledge. An engine that also runs the backward (``engine.backward(loss)``, DeepSpeed:
its ``step()`` clears for you), an object that is called (``model(x)``) or whose ``step``
takes data (``policy.step(obs)``, ``rnn.step(x, h)``: a model's own step) is not taken
for an optimizer, nor is a name that says it is something else (``lr_scheduler``)."""

import torch


def train_batch(net, X, y, loss, trainer):
    net.train()
    pred = net(X)
    l = loss(pred, y)
    l.sum().backward()
    trainer.zero_grad()
    trainer.step()  # expect: ZG102
    return l


def train_batch_correct(net, X, y, loss, trainer):
    net.train()
    trainer.zero_grad()
    pred = net(X)
    l = loss(pred, y)
    l.sum().backward()
    trainer.step()
    return l


def update_D(X, Z, net_D, net_G, loss, trainer_D):
    real_Y = net_D(X)
    fake_Y = net_D(net_G(Z).detach())
    loss_D = loss(real_Y, fake_Y)
    loss_D.backward()
    trainer_D.zero_grad()
    trainer_D.step()  # expect: ZG102
    return loss_D


def fit(net, loader, loss, updater):
    updater.zero_grad()
    for X, y in loader:
        l = loss(net(X), y)
        l.backward()  # expect: ZG101
        updater.step()


def fit_correct(net, loader, loss, updater):
    for X, y in loader:
        updater.zero_grad()
        l = loss(net(X), y)
        l.backward()
        updater.step()


def deepspeed_engine_handed_in(model_engine, loader):
    # the engine's step() clears: clearing once before the loop is all it needs
    model_engine.zero_grad()
    for batch in loader:
        loss = model_engine(batch)
        model_engine.backward(loss)
        model_engine.step()


def engine_named_otherwise(runner, loader):
    runner.zero_grad()
    for batch in loader:
        loss = runner.forward_loss(batch)
        runner.backward(loss)
        runner.step()


def callable_module_with_a_step_method(agent, env, loader):
    # ``agent`` is a module (it is called) whose own ``step`` acts in the environment
    agent.zero_grad()
    for obs in loader:
        loss = agent(obs).sum()
        loss.backward()
        agent.step(env)


def scheduler_named(net, loader, loss, opt_sched):
    for X, y in loader:
        opt_sched.zero_grad()
        l = loss(net(X), y)
        l.backward()
        opt_sched.step()


def only_stepped(net, loader, loss, trainer):
    # no clear on ``trainer`` anywhere: its kind is unknown, as before
    for X, y in loader:
        l = loss(net(X), y)
        l.backward()
        trainer.step()


def reinforce(policy, optimizer, env, episodes):
    # ``policy.step(obs)`` acts; ``policy.zero_grad()`` clears the module before the
    # episode's backward, and ``optimizer`` steps it
    for _ in range(episodes):
        obs, done, logps, ret = env.reset(), False, [], 0.0
        while not done:
            a, logp = policy.step(obs)
            obs, r, done, _ = env.step(a)
            logps.append(logp)
            ret += r
        policy.zero_grad()
        (-torch.stack(logps).sum() * ret).backward()
        optimizer.step()


def model_step_returns_the_loss(model, opt, loader):
    for batch in loader:
        loss = model.step(batch)
        loss.backward()
        model.zero_grad()
        opt.step()  # expect: ZG102


def module_with_an_annealing_step(vae, optimizer, loader):
    # ``vae.step()`` anneals its KL weight and ``vae.reconstruct`` is read: a module
    for x in loader:
        vae.zero_grad()
        recon, mu, logvar = vae.reconstruct(x)
        kl = -0.5 * torch.mean(1 + logvar - mu.pow(2) - logvar.exp())
        loss = (recon - x).pow(2).mean() + vae.beta * kl
        loss.backward()
        optimizer.step()
        vae.step()
