# Source: eriklindernoren/PyTorch-GAN implementations/wgan/wgan.py @ 0484f457a013118f12e38da7e16819a19bd3f074 (MIT). Excerpt: argparse and network bodies trimmed. n_critic discriminator updates per generator update, each with its own clear; two backward calls per discriminator step.
import argparse
import os
import numpy as np
import math
import sys

import torchvision.transforms as transforms
from torchvision.utils import save_image

from torch.utils.data import DataLoader
from torchvision import datasets
from torch.autograd import Variable

import torch.nn as nn
import torch.nn.functional as F
import torch

parser = argparse.ArgumentParser()
opt = parser.parse_args()

cuda = True if torch.cuda.is_available() else False


class Generator(nn.Module):
    def __init__(self):
        super(Generator, self).__init__()
        self.model = nn.Sequential(nn.Linear(opt.latent_dim, opt.img_size**2), nn.Tanh())

    def forward(self, noise):
        img = self.model(noise)
        img = img.view(img.shape[0], opt.channels, opt.img_size, opt.img_size)
        return img


class Discriminator(nn.Module):
    def __init__(self):
        super(Discriminator, self).__init__()
        self.model = nn.Sequential(nn.Linear(opt.img_size**2, 1))

    def forward(self, img):
        img_flat = img.view(img.shape[0], -1)
        validity = self.model(img_flat)
        return validity


# Initialize generator and discriminator
generator = Generator()
discriminator = Discriminator()

mnist_loader = torch.utils.data.DataLoader(
    datasets.MNIST('../../data/mnist', train=True, download=True, transform=transforms.ToTensor()),
    batch_size=opt.batch_size, shuffle=True)

# Optimizers
optimizer_G = torch.optim.Adam(generator.parameters(), lr=opt.lr, betas=(opt.b1, opt.b2))
optimizer_D = torch.optim.Adam(discriminator.parameters(), lr=opt.lr, betas=(opt.b1, opt.b2))

Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor

# ----------
#  Training
# ----------

for epoch in range(opt.n_epochs):

    # Batch iterator
    data_iter = iter(mnist_loader)

    for i in range(len(data_iter) // opt.n_critic):
        # Train discriminator for n_critic times
        for _ in range(opt.n_critic):
            (imgs, _) = data_iter.next()

            # Adversarial ground truths
            valid = Variable(Tensor(imgs.shape[0], 1).fill_(-1.0), requires_grad=False)
            fake = Variable(Tensor(imgs.shape[0], 1).fill_(1.0), requires_grad=False)

            real_imgs = Variable(imgs)

            # ---------------------
            #  Train Discriminator
            # ---------------------

            optimizer_D.zero_grad()

            # Sample noise as generator input
            z = Variable(Tensor(np.random.normal(0, 1, (imgs.shape[0], opt.latent_dim))))

            # Generate a batch of images
            fake_imgs = generator(z)

            # Train on real images
            real_validity = discriminator(real_imgs)
            real_validity.backward(valid)
            # Train on fake images
            fake_validity = discriminator(fake_imgs)
            fake_validity.backward(fake)

            d_loss = real_validity - fake_validity

            optimizer_D.step()

            # Clip weights of discriminator
            for p in discriminator.parameters():
                p.data.clamp_(-opt.clip_value, opt.clip_value)

        # -----------------
        #  Train Generator
        # -----------------

        optimizer_G.zero_grad()

        # Sample noise as generator input
        z = Variable(Tensor(np.random.normal(0, 1, (imgs.shape[0], opt.latent_dim))))

        # Generate a batch of images
        gen_imgs = generator(z)

        # Loss measures generator's ability to fool the discriminator
        # Train on fake images
        gen_validity = discriminator(fake_imgs)
        gen_validity.backward(valid)

        optimizer_G.step()

    if epoch % opt.sample_interval == 0:
        save_image(gen_imgs.data, 'images/%d.png' % epoch, nrow=int(math.sqrt(opt.batch_size)), normalize=True)
