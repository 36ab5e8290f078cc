import torch

optimizer = torch.optim.AdamW(model.parameters())


def accumulate_then_step_and_clear(loader, k):
    for i, batch in enumerate(loader):
        loss = model(batch) / k
        loss.backward()
        if (i + 1) % k == 0:
            optimizer.step()
            optimizer.zero_grad()


def clear_at_window_start(loader, k):
    for i, batch in enumerate(loader):
        if i % k == 0:
            optimizer.zero_grad()
        loss = model(batch) / k
        loss.backward()
        if (i + 1) % k == 0:
            optimizer.step()


def clear_every_micro_batch(loader, k):
    for step, batch in enumerate(loader):
        optimizer.zero_grad()  # expect: ZG103
        loss = model(batch) / k
        loss.backward()
        if (step + 1) % k == 0:
            optimizer.step()


def accumulation_never_cleared(loader, k):
    for i, batch in enumerate(loader):
        loss = model(batch) / k
        loss.backward()  # expect: ZG101
        if (i + 1) % k == 0:
            optimizer.step()


def sync_flag(loader, k):
    for i, batch in enumerate(loader):
        sync = (i + 1) % k == 0
        loss = model(batch) / k
        loss.backward()
        if sync:
            optimizer.step()
            optimizer.zero_grad()


def sync_flag_cleared_every_time(loader, k):
    for i, batch in enumerate(loader):
        sync_gradients = (i + 1) % k == 0
        optimizer.zero_grad()  # expect: ZG103
        loss = model(batch) / k
        loss.backward()
        if sync_gradients:
            optimizer.step()


def counter_with_continue(loader, k):
    counter = 0
    optimizer.zero_grad()
    for batch in loader:
        model(batch).backward()
        counter += 1
        if counter < k:
            continue
        optimizer.step()
        optimizer.zero_grad()
        counter = 0


def manual_counter(loader, k):
    step = 0
    while step < 1000:
        model(next(loader)).backward()
        if (step + 1) % k == 0:
            optimizer.step()
            optimizer.zero_grad()
        step += 1
