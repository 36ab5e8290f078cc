"""A file that imports PyTorch next to another framework is judged as PyTorch code
(issue 13, shape 8)."""

import tensorflow as tf
import torch

writer = tf.summary.create_file_writer("logs")
model = Net()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def train(loader):
    for x, y in loader:
        loss = criterion(model(x), y)
        loss.backward()  # expect: ZG101
        optimizer.step()
