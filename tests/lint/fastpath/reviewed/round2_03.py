def ℘run(w, x):
    (w * x).sum().backward()
def train(w, data):
    for x in data:
        ℘run(w, x)
        w.data -= 0.1 * w.grad
