# A local flag named like an accumulation window (``update``) but computed otherwise — a
# warm-up switch (SlowFast's MoCo ``update_param``), a NaN guard — skips a step: the
# clear on every iteration discards nothing anyone meant to keep. A flag computed from a
# window (modulo, ``accum``, ``sync``) is still one.
import torch


def warm_up_switch(model, loader, iters_noupdate):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for cur_iter, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        update_param = cur_iter >= iters_noupdate
        if update_param:
            optimizer.step()


def nan_guard(model, loader):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        update = torch.isfinite(loss)
        if update:
            optimizer.step()


def window_flag(model, loader, accumulation_steps):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for i, (x, y) in enumerate(loader):
        optimizer.zero_grad()  # expect: ZG103
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        update = (i + 1) % accumulation_steps == 0
        if update:
            optimizer.step()


def flag_from_a_helper(model, loader, trainer):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        optimizer.zero_grad()  # expect: ZG103
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        update = trainer.sync_gradients
        if update:
            optimizer.step()


def parameter_surgery(model, cur_iter, iters_noupdate):
    update_param = cur_iter >= iters_noupdate
    return model, update_param


def flag_from_a_helpers_tuple(model, loader, iters_noupdate):  # SlowFast's train_net.py
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for cur_iter, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        model, update_param = parameter_surgery(model, cur_iter, iters_noupdate)
        if update_param:
            optimizer.step()


def window_flag_from_a_helper(model, loader, engine):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for i, (x, y) in enumerate(loader):
        optimizer.zero_grad()  # expect: ZG103
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        do_step = engine.is_gradient_accumulation_boundary()
        if do_step:
            optimizer.step()
