"""A step function made by a factory and called from the loop (yang-song/score_sde's
``get_step_fn``, open_clip's compiled train step): the call runs the function the factory
returned, its free names the factory's parameters, bound to what the factory was handed."""


def make_train_step(model, optimizer):
    def train_step(batch):
        loss = model(batch).mean()
        loss.backward()  # expect: ZG101
        optimizer.step()
        return loss

    return train_step


def never_cleared(model, optimizer, loader):
    train_step = make_train_step(model, optimizer)
    for batch in loader:
        train_step(batch)


def cleared_by_the_caller(net, opt, loader):
    step = make_train_step(net, opt)
    for batch in loader:
        opt.zero_grad()
        step(batch)


def make_clearing_step(model, optimizer):
    def train_step(batch):
        optimizer.zero_grad()
        model(batch).mean().backward()
        optimizer.step()

    return train_step


def cleared_inside(model, optimizer, loader):
    train_step = make_clearing_step(model, optimizer)
    for batch in loader:
        train_step(batch)


def make_either(model, optimizer, fast):
    def slow_step(batch):
        model(batch).mean().backward()
        optimizer.step()

    def fast_step(batch):
        optimizer.zero_grad()
        model(batch).mean().backward()
        optimizer.step()

    if fast:
        return fast_step
    return slow_step


def two_possible_steps(model, optimizer, loader):
    train_step = make_either(model, optimizer, True)
    for batch in loader:
        train_step(batch)


def make_step_for_the_loop(model, optimizer):
    def train_step(batch):
        loss = model(batch).mean()
        loss.backward()  # expect: ZG101
        optimizer.step()
        return loss

    return train_step


def none_on_the_other_branch(model, loader, eager):
    # open_clip: ``train_step = None`` where the loop steps eagerly; no call runs None
    optimizer = torch.optim.Adam(model.parameters())
    if eager:
        train_step = None
    else:
        train_step = make_step_for_the_loop(model, optimizer)
    for batch in loader:
        if train_step is not None:
            train_step(batch)
