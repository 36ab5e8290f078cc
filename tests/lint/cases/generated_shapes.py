import torch

model = torch.nn.Linear(2, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

# Shapes found by the loop-shape oracle (tests/lint/hardening/).


def clear_dedented_out_of_the_window(loader, k):
    for i, batch in enumerate(loader):
        model(batch).sum().backward()
        if (i + 1) % k == 0:
            optimizer.step()
        optimizer.zero_grad()  # expect: ZG103


def clear_dedented_with_sync_flag(loader, k):
    for i, batch in enumerate(loader):
        sync = (i + 1) % k == 0
        model(batch).sum().backward()
        if sync:
            optimizer.step()
        optimizer.zero_grad()  # expect: ZG103


def skip_bad_batches_then_clear(loader):
    for batch in loader:
        loss = model(batch).sum()
        loss.backward()
        if torch.isfinite(loss):
            optimizer.step()
        optimizer.zero_grad()


def step_first_clear_after_backward(loader):
    for batch in loader:
        optimizer.step()  # expect: ZG102
        model(batch).sum().backward()
        optimizer.zero_grad()


def step_first_clear_before_backward(loader):
    for batch in loader:
        optimizer.step()
        optimizer.zero_grad()
        model(batch).sum().backward()


def clear_in_every_micro_batch_after_backward(loader):
    for batch in loader:
        for chunk in batch:
            model(chunk).sum().backward()
            optimizer.zero_grad()
        optimizer.step()  # expect: ZG102


def step_on_cleared_gradients_is_not_stale(loader, k):
    for i, batch in enumerate(loader):
        optimizer.step()
        if i % k == 0:
            optimizer.zero_grad()
        if (i + 1) % k != 0:
            continue
        model(batch).sum().backward()


def window_of_one_when_start_and_end_coincide(loader, k):
    for i, batch in enumerate(loader):
        if (i + 1) % k == 0:
            optimizer.zero_grad()
        if i % k != 0:
            continue
        model(batch).sum().backward()
        optimizer.step()
