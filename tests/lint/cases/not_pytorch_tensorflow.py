"""TensorFlow/Keras: gradients come from a tape, there is no ``.grad`` to clear; the file
imports no PyTorch, so it is not judged (issue 13, shape 8)."""

import tensorflow as tf

model = tf.keras.Sequential()
optimizer = tf.keras.optimizers.Adam(1e-3)


def train(loader):
    for x, y in loader:
        with tf.GradientTape() as tape:
            loss = loss_fn(model(x), y)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))


def train_custom_step(loader, step):
    for x, y in loader:
        loss = step(model, x, y)
        loss.backward()
        optimizer.step()
