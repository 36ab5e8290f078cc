"""A backward helper called through ``functools.partial`` (lucidrains/stylegan2-pytorch:
``backwards = partial(loss_backwards, self.fp16)``, then ``backwards(loss, opt)``): the
call runs the helper with the bound arguments first, like a direct call would."""

from functools import partial


def loss_backwards(fp16, loss, optimizer, **kwargs):
    if fp16:
        loss.half().backward(**kwargs)  # expect: ZG101
    else:
        loss.backward(**kwargs)  # expect: ZG101


def discriminator_never_cleared(G, D, loader, opt_g, opt_d, fp16):
    backwards = partial(loss_backwards, fp16)
    for real in loader:
        d_loss = D(G.sample().detach()).mean() - D(real).mean()
        backwards(d_loss, opt_d)
        opt_d.step()


def scaled_backwards(fp16, loss, optimizer):
    if fp16:
        loss.half().backward()
    else:
        loss.backward()


def both_cleared(G, D, loader, opt_g, opt_d, fp16):
    backwards = partial(scaled_backwards, fp16)
    for real in loader:
        opt_d.zero_grad()
        d_loss = D(G.sample().detach()).mean() - D(real).mean()
        backwards(d_loss, opt_d)
        opt_d.step()

        opt_g.zero_grad()
        backwards(-D(G.sample()).mean(), opt_g)
        opt_g.step()
