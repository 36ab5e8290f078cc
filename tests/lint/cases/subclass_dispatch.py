class TrainerBase:
    def train(self, start, end):
        for self.iter in range(start, end):
            self.before_step()
            self.run_step()

    def before_step(self):
        pass

    def run_step(self):
        raise NotImplementedError


class SimpleTrainer(TrainerBase):
    def __init__(self, model, optimizer):
        self.model = model
        self.optimizer = optimizer

    def run_step(self):
        self.optimizer.zero_grad()
        self.model(next(self.data)).backward()
        self.optimizer.step()


class LeakyTrainer(TrainerBase):
    def __init__(self, model, optimizer):
        self.model = model
        self.optimizer = optimizer

    def run_step(self):
        self.model(next(self.data)).backward()  # expect: ZG101
        self.optimizer.step()
