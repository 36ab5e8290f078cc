# A flag bound to True next to the step, then tested to leave the loop (GLM's
# train_step: ``complete = True`` after ``optimizer.step()``, then ``if complete:
# break``): the binding decides the test, so no backward follows the step in that loop.
# Read as a test either way could go, it made a path that steps and goes on to the next
# micro-batch's backward (a false ZG101).
def accumulates_until_complete(batches, model, optimizer, k):
    count = 0
    optimizer.zero_grad()
    while True:
        complete = False
        loss = model(next(batches))
        count += 1
        loss.backward()
        if count == k:
            optimizer.step()
            complete = True
        if complete:
            break


def flag_never_set_on_the_stepping_path(batches, model, optimizer, k):
    count = 0
    optimizer.zero_grad()
    while True:
        complete = False
        loss = model(next(batches))
        count += 1
        loss.backward()  # expect: ZG101
        if count == k:
            optimizer.step()
        if complete:
            break


def flag_tested_before_it_is_set(batches, model, optimizer, k):
    done = False
    while not done:
        loss = model(next(batches))
        loss.backward()  # expect: ZG101
        optimizer.step()
        if done:
            break
