# A setting read from an argument's attribute (``config.TRAIN.ACCUMULATION_STEPS``) in a
# function an epoch loop calls is the same setting at every call, as a plain flag
# argument is: an epoch that takes one branch is not followed by one taking the other
# (Swin-Transformer's SimMIM scripts: step then clear when accumulating, clear then step
# otherwise, no clear before the loop).
import torch


def train_one_epoch(config, model, criterion, data_loader, optimizer, scaler):
    model.train()
    for idx, (samples, targets) in enumerate(data_loader):
        outputs = model(samples)
        if config.TRAIN.ACCUMULATION_STEPS > 1:
            loss = criterion(outputs, targets) / config.TRAIN.ACCUMULATION_STEPS
            scaler.scale(loss).backward()
            if (idx + 1) % config.TRAIN.ACCUMULATION_STEPS == 0:
                scaler.step(optimizer)
                optimizer.zero_grad()
                scaler.update()
        else:
            loss = criterion(outputs, targets)
            optimizer.zero_grad()
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()


def main(config, model, criterion, data_loader, optimizer, scaler):
    for epoch in range(config.TRAIN.EPOCHS):
        train_one_epoch(config, model, criterion, data_loader, optimizer, scaler)


def epoch_under_another_name(cfg, model, data_loader, optimizer):
    for step, x in enumerate(data_loader):
        if cfg.accum_steps > 1:
            model(x).sum().backward()
            if (step + 1) % cfg.accum_steps == 0:
                optimizer.step()
                optimizer.zero_grad()
        else:
            optimizer.zero_grad()
            model(x).sum().backward()
            optimizer.step()


def main_under_another_name(args, model, data_loader, optimizer):
    for epoch in range(args.epochs):
        epoch_under_another_name(args, model, data_loader, optimizer)


def epoch_of_a_changing_setting(cfg, model, data_loader, optimizer):
    for step, x in enumerate(data_loader):
        if cfg.accum_steps > 1:
            model(x).sum().backward()  # expect: ZG101
            if (step + 1) % cfg.accum_steps == 0:
                optimizer.step()
                optimizer.zero_grad()
        else:
            optimizer.zero_grad()
            model(x).sum().backward()
            optimizer.step()


def main_changing_the_setting(args, model, data_loader, optimizer):
    for epoch in range(args.epochs):
        args.accum_steps = epoch + 1  # one epoch steps last, the next backwards first
        epoch_of_a_changing_setting(args, model, data_loader, optimizer)
