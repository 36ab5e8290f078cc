"""apex's ``amp.master_params(optimizer)`` only lists the optimizer's (fp32 master)
parameters: clipping their gradients (vdurnov/xview2_1st_place_solution's training
scripts, NVIDIA's apex examples) neither clears nor steps the optimizer. Read as an
unknown call handed the optimizer, it made the optimizer's gradients unknown and hid a
missing clear."""

import torch
from apex import amp


def train(model, loader, optimizer, criterion):
    model, optimizer = amp.initialize(model, optimizer, opt_level="O1")
    for sample in loader:
        optimizer.zero_grad()
        loss = criterion(model(sample["img"]), sample["msk"])
        with amp.scale_loss(loss, optimizer) as scaled_loss:
            scaled_loss.backward()
        torch.nn.utils.clip_grad_norm_(amp.master_params(optimizer), 1.1)
        optimizer.step()


def train_without_clearing(model, loader, optimizer, criterion):
    model, optimizer = amp.initialize(model, optimizer, opt_level="O1")
    for sample in loader:
        loss = criterion(model(sample["img"]), sample["msk"])
        with amp.scale_loss(loss, optimizer) as scaled_loss:
            scaled_loss.backward()  # expect: ZG101
        torch.nn.utils.clip_grad_norm_(amp.master_params(optimizer), 1.1)
        optimizer.step()
