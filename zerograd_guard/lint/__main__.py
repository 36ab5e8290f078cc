"""``python -m zerograd_guard.lint`` = ``zerograd-lint``."""

import sys

from zerograd_guard.lint.cli import main

sys.exit(main())
