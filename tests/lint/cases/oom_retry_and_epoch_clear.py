# Accumulation loops with an out-of-memory retry path: the clear in the `except` branch
# drops a half-built window before restarting the epoch with a smaller batch, which is
# deliberate (written for this project after the shape of a popular detector trainer).


def train(model, optimizer, loader, epochs, accumulate):
    last_opt_step = -1
    for epoch in range(epochs):
        optimizer.zero_grad()
        for i, batch in enumerate(loader):
            try:
                loss = model(batch).sum()
                loss.backward()
            except RuntimeError as e:
                if "out of memory" not in str(e):
                    raise
                last_opt_step = -1
                optimizer.zero_grad()
                break
            if i - last_opt_step >= accumulate:
                optimizer.step()
                optimizer.zero_grad()
                last_opt_step = i


def train_without_window_clear(model, optimizer, loader, epochs):
    for epoch in range(epochs):
        for i, batch in enumerate(loader):
            try:
                model(batch).sum().backward()  # expect: ZG101
            except RuntimeError:
                optimizer.zero_grad()
                continue
            optimizer.step()
