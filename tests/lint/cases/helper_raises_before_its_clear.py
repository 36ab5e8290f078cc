# A helper that raises on a bad argument before it clears: the raising path never
# returns, so the caller's backward and step do not run after it (adversarial
# training's loss helpers, handed the optimizer, clear it before building the loss).
import torch.nn.functional as F


def robust_loss(model, x, y, optimizer, attack="linf-pgd"):
    if attack == "linf-pgd":
        x_adv = x + 0.01
    elif attack == "l2-pgd":
        x_adv = x - 0.01
    else:
        raise ValueError(f"unsupported attack {attack}")
    optimizer.zero_grad()
    return F.cross_entropy(model(x_adv), y)


def train(model, optimizer, loader):
    for x, y in loader:
        loss = robust_loss(model, x, y, optimizer)
        loss.backward()
        optimizer.step()


def loss_clearing_on_one_branch(model, x, y, optimizer, attack):
    if attack == "linf-pgd":
        optimizer.zero_grad()
        return F.cross_entropy(model(x + 0.01), y)
    if attack == "none":
        return F.cross_entropy(model(x), y)
    raise ValueError(attack)


def train_with_a_branch_that_does_not_clear(model, optimizer, loader, attack):
    for x, y in loader:
        loss = loss_clearing_on_one_branch(model, x, y, optimizer, attack)
        loss.backward()  # expect: ZG101
        optimizer.step()
