"""A model's own method named ``backward`` that runs the losses' backwards and steps its
optimizers (knazeri/edge-connect: the loop calls ``self.edge_model.backward(gen_loss,
dis_loss)``): a call of that method, followed into it, not autograd's backward at the
call. It was taken for a backward, so its steps were never seen and a deleted clear went
unreported. A method that only wraps ``loss.backward()`` stays a backward at the call."""
import torch.nn as nn
import torch.optim as optim


class EdgeModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.generator = nn.Linear(4, 4)
        self.gen_optimizer = optim.Adam(self.generator.parameters())

    def process(self, images):
        outputs = self.generator(images)
        return outputs, (outputs - images).abs().mean()

    def backward(self, gen_loss):
        gen_loss.backward()  # expect: ZG101
        self.gen_optimizer.step()


class ClearingModel(EdgeModel):
    def backward(self, gen_loss):
        self.gen_optimizer.zero_grad()
        gen_loss.backward()
        self.gen_optimizer.step()


class GAN(nn.Module):
    """edge-connect's own shape: both optimizers cleared in ``process``, the generator's
    loss through the discriminator, both stepped in ``backward``."""

    def __init__(self):
        super().__init__()
        self.generator = nn.Linear(4, 4)
        self.discriminator = nn.Linear(4, 1)
        self.gen_optimizer = optim.Adam(self.generator.parameters())
        self.dis_optimizer = optim.Adam(self.discriminator.parameters())

    def process(self, images):
        self.gen_optimizer.zero_grad()
        self.dis_optimizer.zero_grad()
        outputs = self.generator(images)
        dis_loss = self.discriminator(outputs.detach()).mean() - self.discriminator(images).mean()
        gen_loss = -self.discriminator(outputs).mean()
        return outputs, gen_loss, dis_loss

    def backward(self, gen_loss, dis_loss):
        dis_loss.backward()
        self.dis_optimizer.step()
        gen_loss.backward()
        self.gen_optimizer.step()


class Trainer:
    """The methods run on ``self.model``, not on the trainer's own ``self``."""

    def __init__(self):
        self.model = GAN()

    def train(self, loader):
        for images in loader:
            outputs, gen_loss, dis_loss = self.model.process(images)
            self.model.backward(gen_loss, dis_loss)


class Wrapper(nn.Module):
    def backward(self, loss):
        loss.backward()


def train(loader):
    model = EdgeModel()
    for images in loader:
        outputs, gen_loss = model.process(images)
        model.backward(gen_loss)


def train_cleared(loader):
    model = ClearingModel()
    for images in loader:
        outputs, gen_loss = model.process(images)
        model.backward(gen_loss)


def train_wrapped(loader):
    net = nn.Linear(4, 1)
    opt = optim.SGD(net.parameters(), lr=0.1)
    wrapper = Wrapper()
    for x in loader:
        wrapper.backward(net(x).sum())  # expect: ZG101
        opt.step()
