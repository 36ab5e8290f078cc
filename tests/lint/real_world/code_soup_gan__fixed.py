# Source: Adversarial-Deep-Learning/code-soup, the fix of https://github.com/Adversarial-Deep-Learning/code-soup/issues/69 (PR https://github.com/Adversarial-Deep-Learning/code-soup/pull/74: "added zero_grad() method for discriminator; step method now also returns Generator loss") reconstructed on the files of the __buggy version (the fixed commit is not in the stored index). Apache-2.0.
import argparse

import torch
import torch.nn as nn
import torch.optim as optim
import torchvision.transforms as transforms

from code_soup.ch5.datasets import MnistDataset


class Generator(nn.Module):
    def __init__(self, image_size, channels, latent_dims, lr):
        super(Generator, self).__init__()
        self.image_size = image_size
        self.channels = channels
        self.latent_dims = latent_dims
        self.main = nn.Sequential(
            nn.Linear(self.latent_dims, 256),
            nn.LeakyReLU(0.2),
            nn.Linear(256, self.image_size * self.image_size * self.channels),
            nn.Tanh(),
        )
        self.optimizer = optim.Adam(self.parameters(), lr=lr)

    def forward(self, x):  # pragma: no cover
        output = self.main(x)
        return output.view(-1, self.channels, self.image_size, self.image_size)


class Discriminator(nn.Module):
    def __init__(self, image_size, channels, lr):
        super(Discriminator, self).__init__()
        self.image_size = image_size
        self.channels = channels
        self.main = nn.Sequential(
            nn.Linear(self.image_size * self.image_size * self.channels, 256),
            nn.LeakyReLU(0.2),
            nn.Linear(256, 1),
            nn.Sigmoid(),
        )
        self.optimizer = optim.Adam(self.parameters(), lr=lr)

    def forward(self, x):  # pragma: no cover
        x = x.view(-1, self.image_size * self.image_size * self.channels)
        return self.main(x)


class GAN:
    def __init__(self, image_size, channels, latent_dims, device, lr):
        self.image_size = image_size
        self.channels = channels
        self.latent_dims = latent_dims
        self.device = device
        self.generator = Generator(image_size, channels, latent_dims, lr).to(device)
        self.discriminator = Discriminator(image_size, channels, lr).to(device)
        self.criterion = torch.nn.BCELoss()
        self.real_label, self.fake_label = 1.0, 0.0

    def step(self, data):
        real_image, _ = data.to(self.device)
        batch_size = real_image.shape[0]
        label = torch.full(
            (batch_size,), self.real_label, dtype=torch.float, device=self.device
        )
        self.discriminator.zero_grad()
        # Forward pass real batch through D
        output = self.discriminator(real_image).view(-1)
        # Calculate loss on all-real batch
        errD_real = self.criterion(output, label)
        errD_real.backward()

        D_x = output.mean().item()
        # Generate fake image batch with G
        noise = torch.randn(batch_size, self.latent_dims, device=self.device)
        fake = self.generator(noise)
        label.fill_(self.fake_label)
        # Classify all fake batch with D
        output = self.discriminator(fake.detach()).view(-1)
        # Calculate D's loss on the all-fake batch
        errD_fake = self.criterion(output, label)
        errD_fake.backward()
        D_G_z1 = output.mean().item()
        # Compute error of D as sum over the fake and the real batches
        errD = errD_real + errD_fake
        # Update D
        self.discriminator.optimizer.step()

        self.generator.zero_grad()
        label.fill_(self.real_label)  # fake labels are real for generator cost
        # Since we just updated D, perform another forward pass of all-fake batch through D
        output = self.discriminator(fake).view(-1)
        # Calculate G's loss based on this output
        errG = self.criterion(output, label)
        # Calculate gradients for G
        errG.backward()
        D_G_z2 = output.mean().item()
        # Update G
        self.generator.optimizer.step()
        return D_x, D_G_z1, errD, errG, D_G_z2


# ---- code_soup/ch5/mnist_gan.py @ 298fe950b907992384c8472db2a4e80da6ccae55: the loop that calls GAN.step ----
if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        prog="mnist_gan.py", description="Train an MNIST GAN model"
    )
    args = parser.parse_args()
    dataloader_batch_size = args.batch_size
    latent_dims = args.latent_dims
    lr = args.learning_rate
    epochs = args.epochs

    transform = transforms.Compose(
        [
            transforms.ToTensor(),
            transforms.Normalize((0.5,), (0.5,)),
        ]
    )
    dataset = MnistDataset(transform=transform)
    dataloader = torch.utils.data.DataLoader(
        dataset, batch_size=dataloader_batch_size, shuffle=True
    )
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    gan = GAN(latent_dims, 784, device, 0.0002)

    for epoch in range(epochs):
        for i, data in enumerate(dataloader, 0):
            D_x, D_G_z1, errD, errG, D_G_z2 = gan.step(data)
