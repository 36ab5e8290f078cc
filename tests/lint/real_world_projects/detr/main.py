# SOURCE: facebookresearch/detr@04d5706a55340d992462d1bfce04e637ef60659e main.py (a fork's history under the upstream name; Apache-2.0)
import time

import torch

import util.misc as utils
from engine import evaluate, train_one_epoch
from models import build_model


def main(args):
    device = torch.device(args.device)
    model, criterion, postprocessors = build_model(args)
    model.to(device)

    model_without_ddp = model
    param_dicts = [
        {"params": [p for n, p in model_without_ddp.named_parameters() if "backbone" not in n and p.requires_grad]},
        {
            "params": [p for n, p in model_without_ddp.named_parameters() if "backbone" in n and p.requires_grad],
            "lr": args.lr_backbone,
        },
    ]
    optimizer = torch.optim.AdamW(param_dicts, lr=args.lr,
                                  weight_decay=args.weight_decay)
    lr_scheduler = torch.optim.lr_scheduler.StepLR(optimizer, args.lr_drop)

    data_loader_train = build_loader(args)

    print("Start training")
    start_time = time.time()
    for epoch in range(args.start_epoch, args.epochs):
        train_stats = train_one_epoch(
            model, criterion, data_loader_train, optimizer, device, epoch,
            args.clip_max_norm)
        lr_scheduler.step()
        utils.save_on_master({
            'model': model_without_ddp.state_dict(),
            'optimizer': optimizer.state_dict(),
            'lr_scheduler': lr_scheduler.state_dict(),
            'epoch': epoch,
        }, args.output_dir)
    print('Training time {}'.format(time.time() - start_time))
