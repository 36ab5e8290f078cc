"""Two loops over one dict of optimizers with one filter on the key: the first steps the
optimizers it picks, the second clears the same ones (Stability-AI/StableCascade's
``backward_pass``: ``for k in optimizers_dict: if k != "training": ...step()``, then the
schedulers' loop, which binds ``k`` too, then the clears). Each loop binds ``k`` to every
key of the dict in turn, so the filter picks the same optimizers in both, whatever ``k``
held in between: every stepped optimizer is cleared (no finding).

A clear loop that picks other optimizers than the step loop leaves the stepped ones
stale: the next backward adds onto gradients already applied (ZG101)."""


class Trainer:
    def __init__(self, optimizers, schedulers):
        self.optimizers = optimizers
        self.schedulers = schedulers

    def backward_pass(self, update, loss):
        if update:
            loss.backward()
            optimizers_dict = self.optimizers
            for k in optimizers_dict:
                if k != "training":
                    optimizers_dict[k].step()
            schedulers_dict = self.schedulers
            for k in schedulers_dict:
                if k != "training":
                    schedulers_dict[k].step()
            for k in optimizers_dict:
                if k != "training":
                    optimizers_dict[k].zero_grad(set_to_none=True)
        else:
            loss.backward()

    def train(self, model, batches, accum):
        for i, x in enumerate(batches):
            self.backward_pass(i % accum == 0, model(x).mean() / accum)


def train_clearing_the_others(model, optimizers, batches):
    for x in batches:
        model(x).mean().backward()  # expect: ZG101
        for k in optimizers:
            if k != "training":
                optimizers[k].step()
        for k in optimizers:
            if k == "training":
                optimizers[k].zero_grad()
