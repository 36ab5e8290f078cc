"""OpenNMT-style trainers (nlpyang/PreSumm's ``_gradient_accumulation``) test the number
of micro-batches per step against 1: with ``grad_accum_count == 1`` every batch clears,
runs its backward and steps inside the loop; with ``> 1`` the window is cleared before
the loop and stepped once after it. ``== 1`` and ``> 1`` of a count are one condition
taken both ways (a count is at least 1): the in-loop clear never meets a window (was a
false ZG103), and without the clear before the loop each window adds onto the one
already applied."""
import torch


class Trainer:
    def __init__(self, model, grad_accum_count=1):
        self.model = model
        self.optim = torch.optim.Adam(model.parameters())
        self.grad_accum_count = grad_accum_count

    def train(self, it):
        for batch in it:
            self._gradient_accumulation(batch)

    def _gradient_accumulation(self, true_batchs):
        if self.grad_accum_count > 1:
            self.model.zero_grad()

        for batch in true_batchs:
            if self.grad_accum_count == 1:
                self.model.zero_grad()
            loss = self.model(batch).sum()
            loss.backward()
            if self.grad_accum_count == 1:
                self.optim.step()

        if self.grad_accum_count > 1:
            self.optim.step()


class WindowNeverCleared:
    def __init__(self, model, grad_accum_count=1):
        self.model = model
        self.optim = torch.optim.Adam(model.parameters())
        self.grad_accum_count = grad_accum_count

    def train(self, it):
        for batch in it:
            self._gradient_accumulation(batch)

    def _gradient_accumulation(self, true_batchs):
        for batch in true_batchs:
            if self.grad_accum_count == 1:
                self.model.zero_grad()
            loss = self.model(batch).sum()
            loss.backward()  # expect: ZG101
            if self.grad_accum_count == 1:
                self.optim.step()

        if self.grad_accum_count > 1:
            self.optim.step()
