# A step function chosen by the arms of one `if` (a clipped or a plain step, a compiled
# step or the eager one, or `None` for a loop written out inline) is a choice of
# configuration: each arm's function is what the loop calls in that configuration, so the
# loop is judged once per arm (open_clip's train.py: `train_step = None` when
# accumulating, a cached compiled step, or the eager step its factory makes).
import torch


def make_plain_step(model, optimizer):
    def train_step(x):
        model(x).sum().backward()  # expect: ZG101
        optimizer.step()

    return train_step


def make_clipped_step(model, optimizer):
    def train_step(x):
        model(x).sum().backward()  # expect: ZG101
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()

    return train_step


def never_cleared(model, optimizer, data, clip):
    if clip:
        train_step = make_clipped_step(model, optimizer)
    else:
        train_step = make_plain_step(model, optimizer)
    for x in data:
        train_step(x)


def make_eager_step(model, optimizer):
    def train_step(x):
        model(x).sum().backward()  # expect: ZG101
        optimizer.step()

    return train_step


def cached_compiled_step(state):
    if state.compiled is not None:
        return state.compiled
    state.compiled = torch.compile(make_eager_step(state.model, state.optimizer))
    return state.compiled


def cleared_only_inline(state, data, accumulate, compile_step):
    model, optimizer = state.model, state.optimizer
    if accumulate:
        train_step = None
    elif compile_step:
        train_step = cached_compiled_step(state)
    else:
        train_step = make_eager_step(model, optimizer)
    for x in data:
        if train_step is not None:
            train_step(x)
        else:
            optimizer.zero_grad()
            model(x).sum().backward()
            optimizer.step()


def make_step_to_keep(model, optimizer):
    def train_step(x):
        model(x).sum().backward()
        optimizer.step()

    return train_step


def make_other_step_to_keep(model, optimizer):
    def train_step(x):
        (2 * model(x).sum()).backward()
        optimizer.step()

    return train_step


def cleared_before_every_call(model, optimizer, data, double):
    if double:
        train_step = make_other_step_to_keep(model, optimizer)
    else:
        train_step = make_step_to_keep(model, optimizer)
    for x in data:
        optimizer.zero_grad()
        train_step(x)
