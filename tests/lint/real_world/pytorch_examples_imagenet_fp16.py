# Source: pytorch/examples imagenet/main.py @ 0221496ef504ebabc4f0ed924d8fc0747b5d028b (BSD-3-Clause). Excerpt (an old fp16 variant): argparse, data loading, validation trimmed. In fp16 mode the optimizer is built over fp32 copies (param_copy) whose .grad is filled from the model by set_grad() each iteration, after model.zero_grad(). `cuda(async=True)` (a syntax error since Python 3.7) is written as upstream later did: `cuda(non_blocking=True)`.
import argparse
import os
import shutil
import time

import torch
import torch.nn as nn
import torch.nn.parallel
import torch.backends.cudnn as cudnn
import torch.distributed as dist
import torch.optim
import torch.utils.data
import torch.utils.data.distributed
import torchvision.transforms as transforms
import torchvision.datasets as datasets
import torchvision.models as models
from fp16util import *

parser = argparse.ArgumentParser(description='PyTorch ImageNet Training')

best_prec1 = 0
cudnn.benchmark = True


def main():
    global args, best_prec1
    args = parser.parse_args()

    args.distributed = args.world_size > 1

    model = models.__dict__[args.arch]()

    if not args.distributed:
        if args.fp16:
            model = nn.Sequential(tofp16(), model.cuda().half())
            model = torch.nn.DataParallel(model).cuda()

            global param_copy
            param_copy = [param.clone().type(torch.cuda.FloatTensor).detach() for param in model.parameters()]
            for param in param_copy:
                param.requires_grad = True

        else:
            model = torch.nn.DataParallel(model).cuda()

        param_copy = list(model.parameters())

    if args.distributed:
        model.cuda()
        model = torch.nn.parallel.DistributedDataParallel(model)
        param_copy = list(model.parameters())

    # define loss function (criterion) and optimizer
    criterion = nn.CrossEntropyLoss().cuda()

    optimizer = torch.optim.SGD(param_copy, args.lr,
                                momentum=args.momentum,
                                weight_decay=args.weight_decay)

    train_loader = torch.utils.data.DataLoader(
        datasets.ImageFolder(os.path.join(args.data, 'train')), batch_size=args.batch_size)

    for epoch in range(args.start_epoch, args.epochs):
        adjust_learning_rate(optimizer, epoch)

        # train for one epoch
        train(train_loader, model, criterion, optimizer, epoch)


def train(train_loader, model, criterion, optimizer, epoch):
    batch_time = AverageMeter()
    losses = AverageMeter()

    # switch to train mode
    model.train()

    end = time.time()
    for i, (input, target) in enumerate(train_loader):
        target = target.cuda(non_blocking=True)
        input_var = torch.autograd.Variable(input)
        target_var = torch.autograd.Variable(target)

        # compute output
        output = model(input_var)
        loss = criterion(output, target_var)

        losses.update(loss.data[0], input.size(0))

        loss = loss*args.loss_scale
        # compute gradient and do SGD step

        if args.fp16:
            model.zero_grad()
            loss.backward()
            if args.loss_scale != 1:
                for param in model.parameters():
                    param.grad.data = param.grad.data/args.loss_scale

            set_grad(param_copy, list(model.parameters()))
            optimizer.step()
            copy_in_params(model, param_copy)
        else:
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

        # measure elapsed time
        batch_time.update(time.time() - end)
        end = time.time()


class AverageMeter(object):
    """Computes and stores the average and current value"""
    def __init__(self):
        self.reset()

    def reset(self):
        self.val = 0
        self.avg = 0
        self.sum = 0
        self.count = 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count


def adjust_learning_rate(optimizer, epoch):
    """Sets the learning rate to the initial LR decayed by 10 every 30 epochs"""
    lr = args.lr * (0.1 ** (epoch // 30))
    for param_group in optimizer.param_groups:
        param_group['lr'] = lr


if __name__ == '__main__':
    main()
