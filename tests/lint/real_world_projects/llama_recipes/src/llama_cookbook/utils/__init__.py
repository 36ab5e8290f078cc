# SOURCE: meta-llama/llama-recipes@faae2fd877995430906e1d0904131ecdaa89a604 src/llama_cookbook/utils/__init__.py (MIT; whole file)
# Copyright (c) Meta Platforms, Inc. and affiliates.
# This software may be used and distributed according to the terms of the Llama 2 Community License Agreement.

from llama_cookbook.utils.memory_utils import MemoryTrace
from llama_cookbook.utils.dataset_utils import *
from llama_cookbook.utils.fsdp_utils import fsdp_auto_wrap_policy, hsdp_device_mesh, get_policies
from llama_cookbook.utils.train_utils import *