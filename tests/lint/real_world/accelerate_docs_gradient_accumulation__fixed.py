# Source: huggingface/accelerate docs/source/usage_guides/gradient_accumulation.mdx @ 4df9010b70479ef59314fa7f10c96c03f556a2b4 (Apache-2.0), "Fix example (#620)", the fix of https://github.com/huggingface/accelerate/issues/616: both clears moved after the step. Excerpt as in accelerate_docs_gradient_accumulation__buggy.py.
from accelerate import Accelerator


def plain_pytorch_loop(model, optimizer, scheduler, training_dataloader, loss_function):
    # "a very simplistic PyTorch training loop that performs gradient accumulation every two batches"
    device = "cuda"
    model.to(device)

    gradient_accumulation_steps = 2

    for index, batch in enumerate(training_dataloader):
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
            optimizer.zero_grad()


def finished_accelerate_loop(model, optimizer, scheduler, training_dataloader, loss_function):
    # the Accelerator and prepare() of the guide's diff blocks, then "the finished code"
    accelerator = Accelerator(gradient_accumulation_steps=2)
    model, optimizer, training_dataloader, scheduler = accelerator.prepare(
        model, optimizer, training_dataloader, scheduler
    )

    for batch in training_dataloader:
        with accelerator.accumulate(model):
            inputs, targets = batch
            outputs = model(inputs)
            loss = loss_function(outputs, targets)
            accelerator.backward(loss)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
