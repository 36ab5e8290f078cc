# A gradient scaler handed in under a name that does not say so (NVAE's
# ``grad_scalar``) is known by GradScaler's own calls: ``grad_scalar.scale(loss).backward()``
# and ``grad_scalar.step(optimizer)``. Its step is the optimizer's step, so a missing clear
# shows; an object with a ``scale`` method whose result is not backpropagated stays unknown.
import torch
from torch.cuda.amp import GradScaler


def main(args, model, train_queue):
    cnn_optimizer = torch.optim.Adamax(model.parameters(), args.learning_rate)
    grad_scalar = GradScaler(2**10)
    for epoch in range(args.epochs):
        never_cleared(train_queue, model, cnn_optimizer, grad_scalar)
        cleared(train_queue, model, cnn_optimizer, grad_scalar)


def never_cleared(train_queue, model, cnn_optimizer, grad_scalar):
    for step, x in enumerate(train_queue):
        loss = model(x).mean()
        grad_scalar.scale(loss).backward()  # expect: ZG101
        grad_scalar.step(cnn_optimizer)
        grad_scalar.update()


def cleared(train_queue, model, cnn_optimizer, grad_scalar):
    for step, x in enumerate(train_queue):
        cnn_optimizer.zero_grad()
        loss = model(x).mean()
        grad_scalar.scale(loss).backward()
        grad_scalar.step(cnn_optimizer)
        grad_scalar.update()


def not_a_scaler(train_queue, model, resizer, env):
    for step, x in enumerate(train_queue):
        loss = model(resizer.scale(x)).mean()
        loss.backward()
        env.step(loss)
