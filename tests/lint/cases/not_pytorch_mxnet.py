"""MXNet/Gluon: ``backward`` overwrites gradients (``grad_req="write"``), nothing to clear;
the file imports no PyTorch, so it is not judged (issue 13, shape 8)."""

import mxnet as mx
from mxnet import autograd, gluon

net = gluon.nn.Dense(1)
trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1})
optimizer = mx.optimizer.SGD(learning_rate=0.1)


def train(loader, batch_size):
    for x, y in loader:
        with autograd.record():
            loss = loss_fn(net(x), y)
        loss.backward()
        trainer.step(batch_size)


def train_with_optimizer(loader, batch_size):
    for x, y in loader:
        with autograd.record():
            loss = loss_fn(net(x), y)
        loss.backward()
        optimizer.step(batch_size)
