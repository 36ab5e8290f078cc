def b0(x):
    c1(x)
def c1(x):
    c2(x)
def c2(x):
    c3(x)
def c3(x):
    c4(x)
def c4(x):
    c5(x)
def c5(x):
    c6(x)
def c6(x):
    c7(x)
def c7(x: G):
    x.g()
class G:
    def m(self):
        pass
    def g(self):
        self.m()
def k():
    opt.step()
def fit(b):
    model(b).backward()
    opt.zero_grad()
    k()
def h(x):
    model.weight.grad = gr
    c7(x)
    k()
