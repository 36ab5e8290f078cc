from ignite.engine import Engine as E
class T:
    def a(self):
        def update(engine, batch):
            batch.backward()
            self.opt.step()
    def b(self, update):
        E(update)
