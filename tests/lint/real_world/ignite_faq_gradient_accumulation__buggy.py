# Source: pytorch/ignite docs/source/faq.rst @ 85d09e9b6dadeba34958f0525cd47571aeb83a01 (BSD-3-Clause), the FAQ's gradient accumulation code block, before https://github.com/pytorch/ignite/issues/583 ("Fix Gradients accumulation example"); the Engine import added. The clear runs on the stepping iteration, before its backward: it discards the accumulation_steps - 1 micro-batches accumulated since the last step, so every step applies one micro-batch.
from ignite.engine import Engine

accumulation_steps = 4

def update_fn(engine, batch):
    model.train()

    if engine.state.iteration % accumulation_steps == 0:
        optimizer.zero_grad()  # expect: ZG103

    x, y = prepare_batch(batch, device=device, non_blocking=non_blocking)
    y_pred = model(x)
    loss = criterion(y_pred, y) / accumulation_steps
    loss.backward()

    if engine.state.iteration % accumulation_steps == 0:
        optimizer.step()

    return loss.item()

trainer = Engine(update_fn)
