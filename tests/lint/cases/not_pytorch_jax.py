"""JAX: gradients are values (``jax.grad``); the file imports no PyTorch, so it is not
judged (issue 13, shape 8)."""

import jax
import optax

optimizer = optax.adam(1e-3)


def train(params, loader):
    state = optimizer.init(params)
    for x, y in loader:
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, state = optimizer.update(grads, state)
        params = optax.apply_updates(params, updates)
        loss.backward()
        optimizer.step()
    return params
