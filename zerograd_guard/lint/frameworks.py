"""Which deep-learning framework a file trains with, decided from its imports.

Only PyTorch accumulates into ``.grad`` the way the rules describe. MXNet/Gluon's
``backward`` overwrites gradients by default (``grad_req="write"``), JAX and TensorFlow
compute gradients functionally (``jax.grad``, ``GradientTape``) and have no ``.grad`` to
clear, Paddle and MindSpore clear with their own calls: a file that imports one of them
and nothing from the PyTorch family is not judged at all.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping

FOREIGN_FRAMEWORKS = frozenset(
    {
        "mxnet", "gluonnlp", "gluoncv", "jax", "jaxlib", "flax", "optax", "haiku", "equinox",
        "tensorflow", "keras", "tf_keras", "paddle", "paddlenlp", "mindspore", "chainer",
    }
)  # fmt: skip
PYTORCH_FAMILY = frozenset(
    {
        "torch", "torchvision", "torchaudio", "torchtext", "lightning", "pytorch_lightning",
        "accelerate", "deepspeed", "timm", "fairseq", "ignite", "opacus", "torchmetrics",
    }
)  # fmt: skip

# Packages a run lints no module of in practice (a framework's, the standard library's):
# names imported from them never lead into another linted module.
OUTSIDE_PROJECT = FOREIGN_FRAMEWORKS | PYTORCH_FAMILY | frozenset(sys.stdlib_module_names)


def foreign_framework(imports: Mapping[str, str]) -> str | None:
    """The non-PyTorch framework ``imports`` (local name -> dotted origin) train with, or
    None when the file may be PyTorch code (it imports PyTorch, or no framework at all)."""
    packages = {origin.split(".", 1)[0] for origin in imports.values()}
    if packages & PYTORCH_FAMILY:
        return None
    foreign = sorted(packages & FOREIGN_FRAMEWORKS)
    return foreign[0] if foreign else None
