"""A loss started from a number and summed inside a loop (``loss = 0``, then ``loss +=
...`` per chunk) is a tensor only if the loop ran: its ``backward()`` after the loop
proves at least one iteration, so the path that skips the loop (and a clear in it)
never reaches the backward (FastCampus' character LSTM, truncated backpropagation with
the clear inside the chunk loop: a false ZG101 in session 26's probe B). A loss
started from a tensor proves nothing. A loop that ran, whose iteration leaves the
paths as they came (``if v == 0: continue`` and a sum, KD_Lib's peer losses), is left
with the paths it was entered with: they were lost, and nothing after it was judged
(a missed ZG101, session 27's probe)."""

import torch

rnn = torch.nn.RNN(4, 4, batch_first=True)
optimizer = torch.optim.Adam(rnn.parameters())


def char_rnn(data, epochs):
    for epoch in range(epochs):
        hidden, loss = torch.zeros(1, 1, 4), 0
        for chunk in data:
            optimizer.zero_grad()
            out, hidden = rnn(chunk, hidden)
            loss += out.pow(2).mean()
        loss.backward()
        optimizer.step()


def started_from_a_tensor(data, epochs):
    for epoch in range(epochs):
        hidden, loss = torch.zeros(1, 1, 4), torch.zeros(())
        for chunk in data:
            optimizer.zero_grad()
            out, hidden = rnn(chunk, hidden)
            loss += out.pow(2).mean()
        loss.backward()  # expect: ZG101
        optimizer.step()


def views_summed_past_a_continue(model, loader, n_views):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for views, y in loader:
        loss = 0
        for v in range(n_views):
            if v == 0:
                continue
            loss += model(views[v]).sub(y).pow(2).mean()
        loss.backward()  # expect: ZG101
        optimizer.step()


def views_summed_past_a_continue_cleared(model, loader, n_views):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for views, y in loader:
        loss = 0
        for v in range(n_views):
            if v == 0:
                continue
            loss += model(views[v]).sub(y).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
