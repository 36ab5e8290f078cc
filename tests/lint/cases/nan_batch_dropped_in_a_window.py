"""A loop that accumulates micro-batches and drops a batch whose loss is NaN
(mlfoundations/open_flamingo's ``train_one_epoch``: ``if torch.isnan(loss):
optimizer.zero_grad(); continue``). That clear runs only on a bad batch; on every other
path the window's step is the last gradient event of the iteration, so without the
clear after the step each window adds onto gradients already applied. The dropping
branch was taken for the other half of a clear-and-step pairing, and the leak went
unreported. With the clear after the step, silent."""
import torch


def never_cleared_after_the_step(args, model, optimizer, loader):
    for num_steps, batch in enumerate(loader):
        loss = model(batch)
        if torch.isnan(loss):
            optimizer.zero_grad(set_to_none=True)
            continue
        (loss / args.gradient_accumulation_steps).backward()  # expect: ZG101
        if ((num_steps + 1) % args.gradient_accumulation_steps) == 0:
            optimizer.step()


def cleared_after_the_step(args, model, optimizer, loader):
    for num_steps, batch in enumerate(loader):
        loss = model(batch)
        if torch.isnan(loss):
            optimizer.zero_grad(set_to_none=True)
            continue
        (loss / args.gradient_accumulation_steps).backward()
        if ((num_steps + 1) % args.gradient_accumulation_steps) == 0:
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
