# SOURCE: facebookresearch/fairseq@998b6d18b009c3ebb262c7cf8cf2ec99196a54dd fairseq/tasks/__init__.py (MIT; the task registry and argument setup trimmed to the re-export)
from .fairseq_task import FairseqTask, LegacyFairseqTask  # noqa


def register_task(name, dataclass=None):
    def register_task_cls(cls):
        return cls

    return register_task_cls
