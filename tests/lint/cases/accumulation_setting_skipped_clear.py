"""A clear that only one branch of an accumulation *setting* runs (microsoft/
Swin-Transformer's ``main_simmim_pt.py``: ``if config.TRAIN.ACCUMULATION_STEPS > 1:``
steps every k micro-batches and clears after the step; ``else:`` clears, steps and
updates on every one). The setting is named like accumulation, but it is no window: no
modulo, no counter, nothing the loop assigns or hands to a call, so every iteration
takes the same branch, and a branch that steps without ever clearing applies stale
gradients (ZG101). A test of something set on every micro-batch (``sync_gradients``,
``is_last_batch``) or a window (``% k``) is not a setting: there the pairing is not
proven.
"""


def setting_branch_never_clears(config, model, loader, optimizer, scaler):
    optimizer.zero_grad()
    for idx, (img, mask) in enumerate(loader):
        loss = model(img, mask)
        if config.TRAIN.ACCUMULATION_STEPS > 1:
            loss = loss / config.TRAIN.ACCUMULATION_STEPS
            scaler.scale(loss).backward()  # expect: ZG101
            if (idx + 1) % config.TRAIN.ACCUMULATION_STEPS == 0:
                scaler.step(optimizer)
                scaler.update()
        else:
            optimizer.zero_grad()
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()


def bare_setting_parameter(model, loader, optimizer, use_accum, accum):
    for idx, (img, mask) in enumerate(loader):
        loss = model(img, mask)
        if use_accum:
            loss.backward()  # expect: ZG101
            if (idx + 1) % accum == 0:
                optimizer.step()
        else:
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()


def setting_branch_clears_after_its_step(config, model, loader, optimizer, scaler):
    optimizer.zero_grad()
    for idx, (img, mask) in enumerate(loader):
        loss = model(img, mask)
        if config.TRAIN.ACCUMULATION_STEPS > 1:
            loss = loss / config.TRAIN.ACCUMULATION_STEPS
            scaler.scale(loss).backward()
            if (idx + 1) % config.TRAIN.ACCUMULATION_STEPS == 0:
                scaler.step(optimizer)
                optimizer.zero_grad()
                scaler.update()
        else:
            optimizer.zero_grad()
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()


def setting_handed_to_a_call(config, model, loader, optimizer):
    for idx, (img, mask) in enumerate(loader):
        reconfigure(config.TRAIN)
        loss = model(img, mask)
        if config.TRAIN.ACCUMULATION_STEPS > 1:
            loss.backward()
            if (idx + 1) % config.TRAIN.ACCUMULATION_STEPS == 0:
                optimizer.step()
        else:
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def flag_set_on_every_micro_batch(model, loader, optimizer, state, k):
    for idx, (img, mask) in enumerate(loader):
        loss = model(img, mask)
        if state.sync_gradients:
            loss.backward()
            if (idx + 1) % k == 0:
                optimizer.step()
        else:
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()


def setting_the_loop_assigns(model, loader, optimizer, accum_steps):
    for idx, (img, mask) in enumerate(loader):
        loss = model(img, mask)
        if accum_steps > 1:
            loss.backward()
            if (idx + 1) % accum_steps == 0:
                optimizer.step()
        else:
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        accum_steps = schedule(idx)
