from functools import partial as pa·rt
def closure(m, x):
    m(x).backward()
def train(m, opt, data):
    for x in data:
        c = pa·rt(closure, m, x)
        opt.step(c)
