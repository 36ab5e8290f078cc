"""One name bound to optimizers over different models, one after the other (the
learnpytorch.io workflow notebook, mrdbourke/pytorch-deep-learning: ``optimizer`` over
``model_0``, later over ``model_1``, then a loop training ``model_1``). Which model the
name's optimizer steps depends on where it is read: read as the first binding's, the
loop's backward through ``model_1`` seemed to miss it, and a deleted clear went
unreported. Its parameters are now unknown, as for one name bound in different
functions: the loop is judged, and nothing is said of which model a backward reaches."""
import torch
from torch import nn

loss_fn = nn.L1Loss()
model_0 = nn.Linear(1, 1)
optimizer = torch.optim.SGD(params=model_0.parameters(), lr=0.01)
for epoch in range(100):
    optimizer.zero_grad()
    loss_fn(model_0(X_train), y_train).backward()
    optimizer.step()

model_1 = nn.Linear(1, 1)
optimizer = torch.optim.SGD(params=model_1.parameters(), lr=0.01)
for epoch in range(1000):
    y_pred = model_1(X_train)
    loss = loss_fn(y_pred, y_train)
    loss.backward()  # expect: ZG101
    optimizer.step()
