"""A loss returned by a function of the file that is handed the model (PyTorch-GAN's
``dragan.py``: ``gradient_penalty = compute_gradient_penalty(discriminator, real)``,
its only discriminator backward). What the helper returns is traced through its
``return`` with its parameters bound to the call's arguments: the penalty reaches the
discriminator the call hands it, and the images it is handed (not detached: the
generator too). Before, such a loss reached "anything", and after the generator's step
had consumed the generator loss's leak into D, the unknown backward made D's gradients
unknown: a loop that never clears D was silent.
"""
import torch


def compute_penalty(D, samples):
    alpha = torch.rand(samples.size(0), 1)
    interpolates = alpha * samples
    return D(interpolates).pow(2).mean()


def through(D, x):
    out = D(x)
    return out.mean()


def dragan_without_the_discriminator_clear(generator, discriminator, loader):
    optimizer_G = torch.optim.Adam(generator.parameters())
    optimizer_D = torch.optim.Adam(discriminator.parameters())
    for real in loader:
        optimizer_G.zero_grad()
        g_loss = -discriminator(generator(torch.randn(4, 2))).mean()
        g_loss.backward()
        optimizer_G.step()
        gradient_penalty = compute_penalty(discriminator, real.data)
        gradient_penalty.backward()  # expect: ZG101
        optimizer_D.step()


def dragan_with_the_discriminator_clear(generator, discriminator, loader):
    optimizer_G = torch.optim.Adam(generator.parameters())
    optimizer_D = torch.optim.Adam(discriminator.parameters())
    for real in loader:
        optimizer_G.zero_grad()
        g_loss = -discriminator(generator(torch.randn(4, 2))).mean()
        g_loss.backward()
        optimizer_G.step()
        optimizer_D.zero_grad()
        gradient_penalty = compute_penalty(discriminator, real.data)
        gradient_penalty.backward()
        optimizer_D.step()


def helper_loss_of_another_model_steps_nothing_here(model, teacher, loader):
    # the helper is handed a frozen copy: its loss reaches the copy, not the model
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x in loader:
        optimizer.zero_grad()
        model(x).mean().backward()
        optimizer.step()
        through(teacher, x).backward()


def helper_loss_is_the_models_own(model, loader):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x in loader:
        loss = through(model, x)
        loss.backward()  # expect: ZG101
        optimizer.step()
