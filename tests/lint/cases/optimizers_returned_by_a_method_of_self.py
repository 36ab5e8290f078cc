# Optimizers built and returned as a tuple by a method of the same class (segan_pytorch's
# ``Gopt, Dopt = self.build_optimizers(opts)``): each name holds the optimizer of the
# model the method built it over (``self.G``, ``self.D``), as for a function of the file.
import torch.nn as nn
import torch.optim as optim


class SEGAN(nn.Module):
    def __init__(self):
        super().__init__()
        self.G = nn.Linear(4, 4)
        self.D = nn.Linear(4, 1)

    def build_optimizers(self):
        Gopt = optim.Adam(self.G.parameters())
        Dopt = optim.Adam(self.D.parameters())
        return Gopt, Dopt

    def never_cleared(self, dloader):
        Gopt, Dopt = self.build_optimizers()
        for batch in dloader:
            loss = self.G(batch).sum()
            loss.backward()  # expect: ZG101
            Gopt.step()

    def cleared(self, dloader):
        Gopt, Dopt = self.build_optimizers()
        for batch in dloader:
            Gopt.zero_grad()
            loss = self.G(batch).sum()
            loss.backward()
            Gopt.step()

    def only_the_discriminator_cleared(self, dloader):
        Gopt, Dopt = self.build_optimizers()
        for batch in dloader:
            self.D.zero_grad()
            g_loss = self.G(batch).sum()
            g_loss.backward()  # expect: ZG101
            Gopt.step()
