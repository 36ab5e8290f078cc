from accelerate import Accelerator

accelerator = Accelerator(gradient_accumulation_steps=4)
model, optimizer, loader = accelerator.prepare(model, optimizer, loader)

def loop_1():
    for batch in loader:
        with accelerator.accumulate(model):
            optimizer.zero_grad()
            loss = model(batch)
            accelerator.backward(loss)
            optimizer.step()

def loop_2():
    for batch in loader:
        with accelerator.accumulate(model):
            loss = model(batch)
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()

def loop_3():
    for batch in loader:
        loss = model(batch)
        accelerator.backward(loss)  # expect: ZG101
        optimizer.step()
