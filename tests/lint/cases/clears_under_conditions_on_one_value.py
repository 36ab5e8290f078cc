"""Clears under conditions that test one and the same value, with a step every batch.

``if accum_count > 1:`` and ``if accum_count <= 1:`` are one condition and its negation:
one of the two clears runs on every batch. With ``> 1`` before the micro-batches and
``== 1`` inside them (OpenNMT's trainer), whether both can be false together depends on
the value (``accum_count`` is asserted positive elsewhere): a finding on that path would
rest on a guess, so there is none. A clear skipped under one condition, or under
conditions that test different values, is judged as before."""

import torch


def complementary_conditions(model, loader, optimizer, accum_count):
    for batches in loader:
        if accum_count > 1:
            optimizer.zero_grad()
        if accum_count <= 1:
            optimizer.zero_grad()
        for x in batches:
            model(x).sum().backward()
        optimizer.step()


def opennmt_shape(model, loader, optimizer, accum_count, trunc_size, target_size):
    for batches in loader:
        if accum_count > 1:
            optimizer.zero_grad()
        for batch in batches:
            for j in range(0, target_size - 1, trunc_size):
                if accum_count == 1:
                    optimizer.zero_grad()
                model(batch, j).sum().backward()
        optimizer.step()


def one_guarded_clear(model, loader, optimizer, accum_count):
    for batches in loader:
        if accum_count > 1:
            optimizer.zero_grad()
        for x in batches:
            model(x).sum().backward()  # expect: ZG101
        optimizer.step()


def clears_under_different_values(model, loader, optimizer, warmup, resume):
    for batches in loader:
        if warmup:
            optimizer.zero_grad()
        if resume:
            optimizer.zero_grad()
        for x in batches:
            model(x).sum().backward()  # expect: ZG101
        optimizer.step()
