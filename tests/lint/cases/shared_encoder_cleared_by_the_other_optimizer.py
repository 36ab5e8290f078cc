"""Two optimizers share an encoder, each with its own head, and each clears after its
step: the first task's backward writes the encoder, which the second optimizer also
steps, but the first optimizer's clear clears the encoder before the second task's
backward, and the first task's loss never reaches the second head. Nothing of the
first loss reaches the second step. Judged per optimizer, the second optimizer held
another model's gradients after the first step, and the first one's clear, which does
not cover the second head, left them there (a false ZG104 on both backwards). The
gradients known to have leaked are the shared encoder's, and they are cleared: what
the second optimizer holds is no longer known to be another loss's. A loss that also
reaches a module only the other optimizer steps still leaks (manuel-galati/usad).
"""

import torch


def training(encoder, head1, head2, loader):
    opt1 = torch.optim.Adam(list(encoder.parameters()) + list(head1.parameters()))
    opt2 = torch.optim.Adam(list(encoder.parameters()) + list(head2.parameters()))
    for x, y1, y2 in loader:
        loss1 = ((head1(encoder(x)) - y1) ** 2).mean()
        loss1.backward()
        opt1.step()
        opt1.zero_grad()
        loss2 = ((head2(encoder(x)) - y2) ** 2).mean()
        loss2.backward()
        opt2.step()
        opt2.zero_grad()


def first_loss_reaches_the_second_head(encoder, head1, head2, loader):
    opt1 = torch.optim.Adam(list(encoder.parameters()) + list(head1.parameters()))
    opt2 = torch.optim.Adam(list(encoder.parameters()) + list(head2.parameters()))
    for x, y1, y2 in loader:
        loss1 = ((head1(encoder(x)) + head2(encoder(x)) - y1) ** 2).mean()
        loss1.backward()  # expect: ZG104
        opt1.step()
        opt1.zero_grad()
        loss2 = ((head2(encoder(x)) - y2) ** 2).mean()
        loss2.backward()
        opt2.step()
        opt2.zero_grad()
