# A clipping helper from another module handed the optimizer (the common
# `utils.clip_gradient(optimizer, grad_clip)`, which clamps every `param.grad` of the
# optimizer's groups) neither clears nor steps: the loop that clears once before it
# still re-applies old gradients (ZG101), and the loop that clears every batch stays
# silent.
import torch

import utils

model = Net()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

optimizer.zero_grad()
for epoch in range(10):
    for batch in loader:
        loss = criterion(model(batch.text), batch.label)
        loss.backward()  # expect: ZG101
        utils.clip_gradient(optimizer, 0.5)
        optimizer.step()


def train_fixed(model, loader):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for batch in loader:
        opt.zero_grad()
        loss = criterion(model(batch.text), batch.label)
        loss.backward()
        clip_gradients(opt, 0.5)
        opt.step()
