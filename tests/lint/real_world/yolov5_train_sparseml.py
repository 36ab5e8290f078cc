# Source: ultralytics/yolov5 train.py @ 0015b188fe15f2764271ba449a2f2cab0051117e (AGPL-3.0/GPL-3.0; the stored version is a SparseML integration of YOLOv5's train.py). Excerpt: setup, one-shot path, logging, validation and checkpointing trimmed. Accumulation by counter: backward every batch, `if ni - last_opt_step >= accumulate:` step and clear. The extra clear at the start of every epoch throws away the micro-batches of an unfinished accumulation window (accumulate changes during warmup, and nothing makes the batch count a multiple of it); Ultralytics removed exactly this epoch-start clear from its successor trainer as a bug: https://github.com/ultralytics/ultralytics/pull/11217 ("fix double zero_grad call messing up gradient accumulation").
import argparse
import math
import os
import random
import time
from copy import deepcopy
from datetime import datetime
from pathlib import Path

import numpy as np
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.cuda import amp
from torch.optim import SGD, Adam, AdamW, lr_scheduler
from tqdm import tqdm


def train(hyp, opt, device, callbacks):
    # Optimizer
    nbs = 64  # nominal batch size
    accumulate = max(round(nbs / batch_size), 1)  # accumulate loss before optimizing
    optimizer = SGD(g0, lr=hyp['lr0'], momentum=hyp['momentum'], nesterov=True)

    scheduler = lr_scheduler.LambdaLR(optimizer, lr_lambda=lf)  # plot_lr_scheduler(optimizer, scheduler, epochs)

    nb = len(train_loader)  # number of batches
    nw = max(round(hyp['warmup_epochs'] * nb), 100)  # number of warmup iterations, max(3 epochs, 100 iterations)
    last_opt_step = -1
    scaler = amp.GradScaler(enabled=cuda)

    scaler = sparseml_wrapper.modify(scaler, optimizer, model, train_loader)
    scheduler = sparseml_wrapper.check_lr_override(scheduler, RANK)
    epochs = sparseml_wrapper.check_epoch_override(epochs, RANK)

    for epoch in range(start_epoch, epochs):  # epoch ------------------------------------------------------------------
        train_steps_executed = 0
        model.train()

        mloss = torch.zeros(3, device=device)  # mean losses
        if RANK != -1:
            train_loader.sampler.set_epoch(epoch)
        pbar = enumerate(train_loader)
        if RANK in [-1, 0]:
            steps = opt.max_train_steps if opt.max_train_steps > 0 else nb
            pbar = tqdm(pbar, total=steps, bar_format='{l_bar}{bar:10}{r_bar}{bar:-10b}')  # progress bar
        optimizer.zero_grad()  # expect: ZG103
        for i, (imgs, targets, paths, _) in pbar:  # batch -------------------------------------------------------------
            ni = i + nb * epoch  # number integrated batches (since train start)
            imgs = imgs.to(device, non_blocking=True).float() / 255  # uint8 to float32, 0-255 to 0.0-1.0

            # Warmup
            if ni <= nw:
                xi = [0, nw]  # x interp
                accumulate = max(1, np.interp(ni, xi, [1, nbs / batch_size]).round())
                for j, x in enumerate(optimizer.param_groups):
                    # bias lr falls from 0.1 to lr0, all other lrs rise from 0.0 to lr0
                    if scheduler:
                        x['lr'] = np.interp(ni, xi, [hyp['warmup_bias_lr'] if j == 2 else 0.0, x['initial_lr'] * lf(epoch)])
                    if 'momentum' in x:
                        x['momentum'] = np.interp(ni, xi, [hyp['warmup_momentum'], hyp['momentum']])

            # Forward
            with amp.autocast(enabled=half_precision):
                pred = model(imgs)  # forward
                loss, loss_items = compute_loss(pred, targets.to(device))  # loss scaled by batch_size
                if RANK != -1:
                    loss *= WORLD_SIZE  # gradient averaged between devices in DDP mode
                if opt.quad:
                    loss *= 4.

            # Backward
            scaler.scale(loss).backward()
            train_steps_executed += 1

            # Optimize
            if ni - last_opt_step >= accumulate:
                scaler.step(optimizer)  # optimizer.step
                scaler.update()
                optimizer.zero_grad()
                if ema:
                    ema.update(model)
                last_opt_step = ni
            elif hasattr(scaler, "emulated_step"):
                # Call for SparseML integration since the number of steps per epoch can vary
                # This keeps the number of steps per epoch equivalent to the number of batches per epoch
                # Does not step the scaler or the optimizer
                scaler.emulated_step()

            if 0 < opt.max_train_steps <= train_steps_executed:

                if RANK in [-1, 0]:
                    pbar.update(1)
                    pbar.close()
                break
            # end batch ------------------------------------------------------------------------------------------------

        # Scheduler
        lr = [x['lr'] for x in optimizer.param_groups]  # for loggers
        if scheduler:
            scheduler.step()

    torch.cuda.empty_cache()
    return results
