# A flag tested once in a loop (``if fp16:``) keeps its value on the next iteration: a
# path that took the fp16 branch never takes the other one afterwards. From
# simpletransformers' retrieval model (held-out review): the fp16 branch steps without a
# clear (a real bug), the other branch clears after its step (correct).


def train(model, loader, optimizer, scaler, fp16):
    for batch in loader:
        loss = model(batch)
        if fp16:
            scaler.scale(loss).backward()  # expect: ZG101
            scaler.step(optimizer)
        else:
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()


def train_with_args(model, loader, optimizer, scaler, args):
    for batch in loader:
        loss = model(batch)
        if not args.fp16:
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
        else:
            scaler.scale(loss).backward()  # expect: ZG101
            scaler.step(optimizer)


def train_high_loss_only(model, loader, optimizer, scaler, fp16):
    # nested in a data-dependent condition: the other branch's backward is still not
    # preceded by the fp16 step, and the fp16 branch's is
    for batch in loader:
        loss = model(batch)
        if loss.item() > 1.0:
            if fp16:
                scaler.scale(loss).backward()  # expect: ZG101
                scaler.step(optimizer)
            else:
                loss.backward()
                optimizer.step()
                optimizer.zero_grad()


def train_flag_flips(model, loader, optimizer, scaler):
    # the flag changes in the loop: either branch may follow the other
    use_amp = False
    for batch in loader:
        loss = model(batch)
        if use_amp:
            scaler.scale(loss).backward()  # expect: ZG101
            scaler.step(optimizer)
            optimizer.zero_grad()
        else:
            loss.backward()  # expect: ZG101
            optimizer.step()
        use_amp = not use_amp


def train_random_branch(model, loader, optimizer):
    # a call is not a flag: each iteration draws again
    for batch in loader:
        loss = model(batch)
        if random.random() < 0.5:
            loss.backward()  # expect: ZG101
            optimizer.step()
        else:
            loss.backward()  # expect: ZG101
            optimizer.step()
            optimizer.zero_grad()


def train_high_loss_split(model, loader, optimizer, scaler, fp16):
    # the flag's branches split across the backward and the step, inside a data-dependent
    # condition that holds the skipped clear too (simpletransformers' repeat loop): the
    # fp16 path never clears
    for batch in loader:
        loss = model(batch)
        if loss.item() > 1.0:
            if fp16:
                scaler.scale(loss).backward()  # expect: ZG101
            else:
                loss.backward()
            if fp16:
                scaler.step(optimizer)
            else:
                optimizer.step()
                optimizer.zero_grad()


def train_clear_gated_elsewhere(model, loader, optimizer, should_clear):
    # the clear is skipped under a condition the step's own condition does not enclose:
    # the two may be set together, so nothing is proven
    for batch in loader:
        if should_clear:
            optimizer.zero_grad()
        loss = model(batch)
        loss.backward()
        if loss.item() > 1.0:
            optimizer.step()
