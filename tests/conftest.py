"""Session set-up: offscreen Qt for the viewer tests (set before anything imports Qt).

Fixtures only; builders and the shared-data locator are in ``tests/support.py``.
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
