def other(loss):
    loss.backward()
def train(w, data):
    for x in data:
        ((w * x).sum().backward)()
        w.data -= 0.1 * w.grad
