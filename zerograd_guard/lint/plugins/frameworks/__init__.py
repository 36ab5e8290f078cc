"""Built-in framework plugins: what frameworks that drive the step do, told through the
public plugin hooks (``zerograd_guard.lint.plugins.hookspecs``), so each module here is
also an example for third-party plugins. They are registered on every run, before the
plugins of installed packages.

Lightning (``training_step`` with manual optimization, Fabric) and accelerate are
modelled in the extractor itself; ``deepspeed.initialize`` engines too.
"""

from __future__ import annotations

from zerograd_guard.lint.plugins.frameworks import (
    deepspeed,
    detectron2,
    fairseq,
    fastai,
    ignite,
    mmengine,
    transformers,
)

BUILTIN_PLUGINS = (deepspeed, detectron2, fairseq, fastai, ignite, mmengine, transformers)

__all__ = ["BUILTIN_PLUGINS"]
