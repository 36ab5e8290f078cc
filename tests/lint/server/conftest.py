import sys
from pathlib import Path

# The tests import lsp_client and the CLI helpers as top-level modules.
sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1] / "cli"))
