"""Lazy regularisation (rosinality/stylegan2-pytorch's ``train``, with its condition
written inline): ``if i % 16 == 0:`` clears, backpropagates and steps the
discriminator only. The generator's optimizer steps on every iteration; its clear
discards no window. With both optimizers handed in (what they step unknown), the
discriminator's backward may reach the generator's, and the skipped window test was
taken for the generator's too: a false ZG103 at the generator's clear. A clear that
runs every micro-batch while the window's ``if`` steps that very optimizer is still
ZG103.
"""


def lazy_regularisation(G, D, g_optim, d_optim, batches):
    for i, x in enumerate(batches):
        d_optim.zero_grad()
        D(G(x).detach()).mean().backward()
        d_optim.step()
        if i % 16 == 0:
            d_optim.zero_grad()
            D(x).pow(2).mean().backward()
            d_optim.step()
        g_optim.zero_grad()
        (-D(G(x)).mean()).backward()
        g_optim.step()


def accumulation_broken_by_the_clear(model, optimizer, batches, k):
    for i, x in enumerate(batches):
        optimizer.zero_grad()  # expect: ZG103
        model(x).mean().backward()
        if (i + 1) % k == 0:
            optimizer.step()
