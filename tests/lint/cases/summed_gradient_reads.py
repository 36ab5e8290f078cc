"""A loop that backpropagates and sums what it reads of ``p.grad`` into a total kept
across iterations (an EWC or MAS Fisher estimate, per-sample gradients collected for a
statistic) must clear before each backward: without the clear, the second iteration's
read sees the first iteration's gradients again, so the total counts them twice, the
third three times. No optimizer steps there, so nothing else reports it (session 25's
probes: 14 deleted clears of EWC, SI, MAS and GEM estimates).

Silent when: the loop clears; the read overwrites instead of summing (the last value is
the sum over all iterations, read once: a deliberate sum); the total starts again in
every iteration; an optimizer steps after the loop (micro-batches accumulated on purpose,
their running norm logged); the read runs only on some iterations; a helper that clears
runs in the loop; the model is built again in every iteration; the backward reaches
another model than the one read."""

import torch
import torch.nn.functional as F


class EWC:
    def __init__(self, model, loader):
        self.model = model
        self.fisher = self._fisher(loader)

    def _fisher(self, loader):
        fisher = {n: torch.zeros_like(p) for n, p in self.model.named_parameters()}
        for x, y in loader:
            loss = F.nll_loss(self.model(x), y)
            loss.backward()  # expect: ZG101
            for n, p in self.model.named_parameters():
                fisher[n] += p.grad.detach() ** 2 / len(loader)
        return fisher

    def _fisher_cleared(self, loader):
        fisher = {n: torch.zeros_like(p) for n, p in self.model.named_parameters()}
        for x, y in loader:
            self.model.zero_grad()
            loss = F.nll_loss(self.model(x), y)
            loss.backward()
            for n, p in self.model.named_parameters():
                fisher[n] += p.grad.detach() ** 2 / len(loader)
        return fisher


def mas_importance(model, loader):
    importance = [torch.zeros_like(p) for p in model.parameters()]
    for x in loader:
        model(x).norm(2, dim=1).pow(2).mean().backward()  # expect: ZG101
        for i, p in enumerate(model.parameters()):
            importance[i].add_(p.grad.abs())
    return importance


def per_sample_gradients(model, samples):
    collected = []
    for x, y in samples:
        F.cross_entropy(model(x), y).backward()  # expect: ZG101
        collected.append([p.grad.clone() for p in model.parameters()])
    return collected


def last_scores(model, loader):
    scores = {}
    for x, y in loader:
        F.cross_entropy(model(x), y).backward()
        for n, p in model.named_parameters():
            scores[n] = (p * p.grad).abs()
    return scores


def norm_per_batch(model, loader, log):
    for x, y in loader:
        F.cross_entropy(model(x), y).backward()
        total = 0.0
        for p in model.parameters():
            total += p.grad.norm() ** 2
        log(total)


def accumulated_then_stepped(model, chunks, optimizer):
    norms = []
    for x, y in chunks:
        F.cross_entropy(model(x), y).backward()
        norms.append(sum(p.grad.norm() for p in model.parameters()))
    optimizer.step()
    optimizer.zero_grad()
    return norms


def read_on_last_batch(model, loader):
    fisher = [torch.zeros_like(p) for p in model.parameters()]
    for i, (x, y) in enumerate(loader):
        F.cross_entropy(model(x), y).backward()
        if i == len(loader) - 1:
            for f, p in zip(fisher, model.parameters()):
                f += p.grad ** 2
    return fisher


def reset(model):
    model.zero_grad()


def cleared_by_helper(model, loader):
    fisher = [torch.zeros_like(p) for p in model.parameters()]
    for x, y in loader:
        reset(model)
        F.cross_entropy(model(x), y).backward()
        for i, p in enumerate(model.parameters()):
            fisher[i] += p.grad ** 2
    return fisher


def model_per_sample(make_model, samples):
    collected = []
    for x, y in samples:
        model = make_model()
        F.cross_entropy(model(x), y).backward()
        collected.append([p.grad.clone() for p in model.parameters()])
    return collected


def teacher_backward(model, teacher, loader):
    fisher = [torch.zeros_like(p) for p in model.parameters()]
    for x, y in loader:
        F.cross_entropy(teacher(x), y).backward()
        for i, p in enumerate(model.parameters()):
            fisher[i] += p.grad ** 2
    return fisher


def loss_of(model, x, y):
    return F.cross_entropy(model(x), y)


def through_own_loss_helper(model, loader):
    fisher = [torch.zeros_like(p) for p in model.parameters()]
    for x, y in loader:
        loss_of(model, x, y).backward()  # expect: ZG101
        for f, p in zip(fisher, model.parameters()):
            f += p.grad**2
    return fisher


def through_unknown_helper(model, loader, train_utils):
    fisher = [torch.zeros_like(p) for p in model.parameters()]
    for x, y in loader:
        train_utils.prepare(model)  # may clear: not this file's
        F.cross_entropy(model(x), y).backward()
        for f, p in zip(fisher, model.parameters()):
            f += p.grad**2
    return fisher


def first_batch_only(model, loader):
    grads = [torch.zeros_like(p) for p in model.parameters()]
    for x, y in loader:
        F.cross_entropy(model(x), y).backward()
        for g, p in zip(grads, model.parameters()):
            g += p.grad
        break
    return grads


def gradients_one_by_one(model, loader):
    total = [torch.zeros_like(p) for p in model.parameters()]
    for x, y in loader:
        F.cross_entropy(model(x), y).backward()
        for t, p in zip(total, model.parameters()):
            t += p.grad
        yield total  # the consumer may clear between iterations
