# The first loop leaves applied gradients behind; the second adds onto them once.
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

for batch in loader:
    optimizer.zero_grad()
    model(batch).backward()
    optimizer.step()

for batch in finetune_loader:
    model(batch).backward()  # expect: ZG101
    optimizer.step()
    optimizer.zero_grad()
