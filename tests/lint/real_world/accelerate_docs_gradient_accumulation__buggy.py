# Source: huggingface/accelerate docs/source/usage_guides/gradient_accumulation.mdx @ 447ad0e6359a5b6f686e36c45cfa411a1cbe3997 (Apache-2.0), before the fix of https://github.com/huggingface/accelerate/issues/616 ("Gradient Accumulation Documentation has optimizer.zero_grad() at wrong step"). Excerpt: the guide's plain PyTorch loop and its finished accelerate code, each code block wrapped in a function of the names it uses (the guide shows them as bare snippets; the Accelerator/prepare lines come from its diff blocks). Both clear on every micro-batch: the plain loop before each backward while stepping every 2; the accelerate loop inside accumulate(), where the prepared optimizer's clear runs for real on the sync micro-batch, before its backward.
from accelerate import Accelerator


def plain_pytorch_loop(model, optimizer, scheduler, training_dataloader, loss_function):
    # "a very simplistic PyTorch training loop that performs gradient accumulation every two batches"
    device = "cuda"
    model.to(device)

    gradient_accumulation_steps = 2

    for index, batch in enumerate(training_dataloader):
        optimizer.zero_grad()  # expect: ZG103
        inputs, targets = batch
        inputs = inputs.to(device)
        targets = targets.to(device)
        outputs = model(inputs)
        loss = loss_function(outputs, targets)
        loss = loss / gradient_accumulation_steps
        loss.backward()
        if (index + 1) % gradient_accumulation_steps == 0:
            optimizer.step()
            scheduler.step()


def finished_accelerate_loop(model, optimizer, scheduler, training_dataloader, loss_function):
    # the Accelerator and prepare() of the guide's diff blocks, then "the finished code"
    accelerator = Accelerator(gradient_accumulation_steps=2)
    model, optimizer, training_dataloader, scheduler = accelerator.prepare(
        model, optimizer, training_dataloader, scheduler
    )

    for batch in training_dataloader:
        with accelerator.accumulate(model):
            optimizer.zero_grad()  # expect: ZG103
            inputs, targets = batch
            outputs = model(inputs)
            loss = loss_function(outputs, targets)
            accelerator.backward(loss)
            optimizer.step()
            scheduler.step()
