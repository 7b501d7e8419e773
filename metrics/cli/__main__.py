"""``python -m metrics.cli``: the ``detlens`` command without its console script."""

import sys

from metrics.cli.main import main

sys.exit(main())
