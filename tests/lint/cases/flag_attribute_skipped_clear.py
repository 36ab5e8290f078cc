"""A clear that only one branch of a configuration flag runs, the flag an attribute of a
parameter (meta-llama/llama-recipes' ``train_utils.py``: ``if train_config.use_fp16:``
clears in its branch, the other branch never does). Nothing in the loop assigns the
attribute, calls a method on the configuration or hands it to a call: every iteration
takes the same branch, so the plain branch's steps apply stale gradients (ZG101). A
configuration the loop hands on may be changed by the call, and ``self``'s attributes
by any method: there the pairing is not proven. Handing on other attributes' values
(``range(cfg.num_epochs)``, ``clip_grad_norm_(params, cfg.clip)``) changes nothing the
flag reads; handing on the object that holds the flag (``update(cfg.amp)`` under ``if
cfg.amp.enabled:``, ``update(cfg.amps)`` under ``if cfg.amps[0].enabled:``) may.
"""


def fp16_branch_clears_only(model, loader, optimizer, cfg, k):
    for step, batch in enumerate(loader):
        loss = model(batch)
        if cfg.use_fp16:
            loss.backward()
            if step % k == 0:
                optimizer.step()
                optimizer.zero_grad()
        else:
            loss.backward()  # expect: ZG101
            if step % k == 0:
                optimizer.step()


def other_attributes_handed_to_calls(model, loader, optimizer, cfg, k):
    for epoch in range(cfg.num_epochs):
        for step, batch in enumerate(loader):
            loss = model(batch)
            if cfg.use_fp16:
                loss.backward()
                if step % k == 0:
                    clip_grad_norm_(model.parameters(), cfg.clip)
                    optimizer.step()
                    optimizer.zero_grad()
            else:
                loss.backward()  # expect: ZG101
                if step % k == 0:
                    clip_grad_norm_(model.parameters(), cfg.clip)
                    optimizer.step()


def flag_holder_handed_to_a_call(model, loader, optimizer, cfg, k):
    for step, batch in enumerate(loader):
        loss = model(batch)
        if cfg.amp.enabled:
            loss.backward()
            if step % k == 0:
                optimizer.step()
                optimizer.zero_grad()
        else:
            loss.backward()
            if step % k == 0:
                optimizer.step()
        update_scaling(cfg.amp, step)


def flag_holder_in_a_list_handed_to_a_call(model, loader, optimizer, cfg, k):
    for step, batch in enumerate(loader):
        loss = model(batch)
        if cfg.amps[0].enabled:
            loss.backward()
            if step % k == 0:
                optimizer.step()
                optimizer.zero_grad()
        else:
            loss.backward()
            if step % k == 0:
                optimizer.step()
        if cfg.amps[0].enabled:
            log_scale(loss)
        update_scaling(cfg.amps, step)


def configuration_handed_to_a_call(model, loader, optimizer, cfg, k):
    for step, batch in enumerate(loader):
        loss = model(batch)
        if cfg.use_fp16:
            loss.backward()
            if step % k == 0:
                optimizer.step()
                optimizer.zero_grad()
        else:
            loss.backward()
            if step % k == 0:
                optimizer.step()
        update_schedule(cfg, step)


class Trainer:
    def train(self, loader, k):
        for step, batch in enumerate(loader):
            loss = self.model(batch)
            if self.use_fp16:
                loss.backward()
                if step % k == 0:
                    self.optimizer.step()
                    self.optimizer.zero_grad()
            else:
                loss.backward()
                if step % k == 0:
                    self.optimizer.step()
            self.tick()
