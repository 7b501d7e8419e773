"""``python -m metrics.cli``: the ``detlens`` command without its console script."""

import sys

from metrics.launch import entry

sys.exit(entry())
