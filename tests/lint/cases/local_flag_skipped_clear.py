"""A clear that one branch of a local flag runs, the flag set before the loop and never
rebound in it (mlfoundations/open_clip's ``train_one_epoch``: ``if train_step is not
None:`` clears before its compiled step, the other branch calls a helper that
accumulates and steps, never clearing). Only the function can rebind its locals, so every
iteration takes the same branch and the helper's steps apply stale gradients (ZG101).
A local the loop rebinds, hands to a call or calls a method on, or that a nested function
declares ``nonlocal``, may change: there the pairing is not proven."""


def finish(optimizer, scaler):
    if scaler is not None:
        scaler.step(optimizer)
        scaler.update()
    else:
        optimizer.step()


def accumulate_and_step(model, batch, window, optimizer, scaler, k):
    window.append(batch)
    if len(window) < k:
        return None
    for micro in window:
        model(micro).backward()  # expect: ZG101
    finish(optimizer, scaler)
    return []


def compiled_branch_clears_only(model, loader, optimizer, scaler, k, compiled):
    step_fn = compiled if k == 1 else None
    window = []
    for batch in loader:
        if step_fn is not None:
            optimizer.zero_grad()
            step_fn(batch)
        else:
            result = accumulate_and_step(model, batch, window, optimizer, scaler, k)
            if result is None:
                continue
            window = result


def flag_rebound_in_the_loop(model, loader, optimizer, scaler, k, compiled):
    step_fn = compiled if k == 1 else None
    window = []
    for batch in loader:
        if step_fn is not None:
            optimizer.zero_grad()
            step_fn(batch)
        else:
            result = accumulate_and_step(model, batch, window, optimizer, scaler, k)
            if result is None:
                continue
            window = result
        step_fn = pick(batch)


def flag_handed_to_a_call(model, loader, optimizer, scaler, k, plan):
    window = []
    for batch in loader:
        if plan:
            optimizer.zero_grad()
            model(batch).backward()
            optimizer.step()
        else:
            result = accumulate_and_step(model, batch, window, optimizer, scaler, k)
            if result is None:
                continue
            window = result
        advance(plan)


def flag_a_nested_function_rebinds(model, loader, optimizer, scaler, k, compiled):
    step_fn = compiled if k == 1 else None
    window = []

    def fall_back():
        nonlocal step_fn
        step_fn = None

    for batch in loader:
        if step_fn is not None:
            optimizer.zero_grad()
            step_fn(batch)
        else:
            result = accumulate_and_step(model, batch, window, optimizer, scaler, k)
            if result is None:
                continue
            window = result
        fall_back()
