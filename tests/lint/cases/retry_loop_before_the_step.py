# A loop that clears, backpropagates and leaves with `break` once the attempt is good
# (out of memory: halve the chunk and retry; a non-finite loss: retry), with the step
# after it, retries one window: each clear throws away a failed attempt, not a
# micro-batch of an accumulation (yandex-research/tabular-dl-revisiting-models).
import torch


def retry_until_finite(optimizer, model, x, n):
    while n:
        optimizer.zero_grad()
        loss = model(x).sum()
        loss.backward()
        if loss.isfinite():
            break
        n //= 2
    optimizer.step()


def retry_on_out_of_memory(optimizer, loss_fn, step, batch, chunk_size):
    batch_size = len(batch)
    while chunk_size != 0:
        try:
            optimizer.zero_grad()
            if batch_size <= chunk_size:
                loss_fn(*step(batch)).backward()
            else:
                for chunk in batch.split(chunk_size):
                    (loss_fn(*step(chunk)) * (len(chunk) / batch_size)).backward()
        except RuntimeError as err:
            if "out of memory" not in str(err):
                raise
            chunk_size //= 2
        else:
            break
    optimizer.step()
    return chunk_size


def clear_inside_the_micro_batch_loop(optimizer, model, batches):
    for batch in batches:
        for micro in torch.split(batch, 4):
            optimizer.zero_grad()  # expect: ZG103
            model(micro).sum().backward()
        optimizer.step()
