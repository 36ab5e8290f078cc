from accelerate import Accelerator

accelerator = Accelerator(gradient_accumulation_steps=4)
model, optimizer, loader = accelerator.prepare(model, optimizer, loader)

def loop_1():
    # issue 13: the prepared optimizer's clear runs for real on the micro-batch that
    # syncs, before its backward: it discards the k - 1 accumulated micro-batches
    for batch in loader:
        with accelerator.accumulate(model):
            optimizer.zero_grad()  # expect: ZG103
            loss = model(batch)
            accelerator.backward(loss)
            optimizer.step()

def loop_2():
    for batch in loader:
        with accelerator.accumulate(model):
            loss = model(batch)
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()

def loop_3():
    for batch in loader:
        loss = model(batch)
        accelerator.backward(loss)  # expect: ZG101
        optimizer.step()

def module_clear_runs_every_micro_batch():
    for batch in loader:
        with accelerator.accumulate(model):
            loss = model(batch)
            accelerator.backward(loss)
            optimizer.step()
            model.zero_grad()  # expect: ZG103

def module_clear_before_backward():
    for batch in loader:
        with accelerator.accumulate(model):
            model.zero_grad()  # expect: ZG103
            loss = model(batch)
            accelerator.backward(loss)
            optimizer.step()

def clear_after_step_with_scheduler():
    for batch in loader:
        with accelerator.accumulate(model):
            loss = model(batch)
            accelerator.backward(loss)
            if accelerator.sync_gradients:
                accelerator.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()

def never_cleared_inside_accumulate():
    for batch in loader:
        with accelerator.accumulate(model):
            loss = model(batch)
            accelerator.backward(loss)  # expect: ZG101
            optimizer.step()

def clear_after_the_accumulate_block():
    for batch in loader:
        with accelerator.accumulate(model):
            loss = model(batch)
            accelerator.backward(loss)
            optimizer.step()
        optimizer.zero_grad()
