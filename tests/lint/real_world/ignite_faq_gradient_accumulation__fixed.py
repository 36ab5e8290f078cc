# Source: pytorch/ignite docs/source/faq.rst @ 3c1cc89b8b7160e2428bfe3207c34debfb8b0adb (BSD-3-Clause), "Fixes #583 (#584)": the clear moved after the step. Excerpt as in ignite_faq_gradient_accumulation__buggy.py.
from ignite.engine import Engine

accumulation_steps = 4

def update_fn(engine, batch):
    model.train()

    x, y = prepare_batch(batch, device=device, non_blocking=non_blocking)
    y_pred = model(x)
    loss = criterion(y_pred, y) / accumulation_steps
    loss.backward()

    if engine.state.iteration % accumulation_steps == 0:
        optimizer.step()
        optimizer.zero_grad()

    return loss.item()

trainer = Engine(update_fn)
