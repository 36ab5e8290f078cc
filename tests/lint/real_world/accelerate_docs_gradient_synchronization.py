# Source: huggingface/accelerate docs/source/concept_guides/gradient_synchronization.md @ fc52fa969ea7a7f01d31c535717be9b5f72351e2 (Apache-2.0). Excerpt: the guide's three code blocks, each wrapped in a function of the names it uses (the guide shows them as bare snippets; the diff block is shown as its result). 1: DDP's no_sync, gradients accumulated over the whole epoch and stepped once on the last batch (one step, nothing stale). 2: the same with accelerator.no_sync, cleared after the step. 3: "the final gradient accumulation API": inside accumulate() the prepared optimizer's clear before the backward runs for real on every sync micro-batch and discards the micro-batches accumulated since the last step (the clear after the step is the right one). Still in the stored guide; the same mistake was fixed in the gradient accumulation guide (https://github.com/huggingface/accelerate/issues/616) and reported for the explore page (https://github.com/huggingface/accelerate/issues/1422).


def ddp_no_sync(accelerator, model, dataloader, optimizer, loss_func):
    ddp_model, dataloader, optimizer = accelerator.prepare(model, dataloader, optimizer)

    for index, batch in enumerate(dataloader):
        inputs, targets = batch
        # Trigger gradient synchronization on the last batch
        if index != (len(dataloader) - 1):
            with ddp_model.no_sync():
                # Gradients only accumulate
                outputs = ddp_model(inputs)
                loss = loss_func(outputs)
                accelerator.backward(loss)
        else:
            # Gradients finally sync
            outputs = ddp_model(inputs)
            loss = loss_func(outputs)
            accelerator.backward(loss)
            optimizer.step()


def accelerate_no_sync(accelerator, model, dataloader, optimizer, loss_func):
    ddp_model, dataloader, optimizer = accelerator.prepare(model, dataloader, optimizer)

    for index, batch in enumerate(dataloader):
        inputs, targets = batch
        # Trigger gradient synchronization on the last batch
        if index != (len(dataloader)-1):
            with accelerator.no_sync(model):
                # Gradients only accumulate
                outputs = ddp_model(inputs)
                loss = loss_func(outputs, targets)
                accelerator.backward(loss)
        else:
            # Gradients finally sync
            outputs = ddp_model(inputs)
            loss = loss_func(outputs)
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()


def final_accumulate_api(accelerator, model, dataloader, optimizer, loss_function):
    ddp_model, dataloader, optimizer = accelerator.prepare(model, dataloader, optimizer)

    for batch in dataloader:
        with accelerator.accumulate(model):
            optimizer.zero_grad()  # expect: ZG103
            inputs, targets = batch
            outputs = model(inputs)
            loss = loss_function(outputs, targets)
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
