import deepspeed

model_engine, optimizer, _, _ = deepspeed.initialize(model=model, model_parameters=params)

for batch in loader:
    loss = model_engine(batch)
    model_engine.backward(loss)
    model_engine.step()

from transformers import Trainer

trainer = Trainer(model=model, args=args, train_dataset=dataset)
trainer.train()
