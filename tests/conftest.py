"""Session set-up: offscreen Qt for the viewer tests, and the shared-data fixture.

Fixtures only; builders and the shared-data locator are in ``tests/support.py``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support import shared_root, skip_reason

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.fixture
def shared() -> Path:
    """The shared data folder (``$DETLENS_SHARED`` or ``../shared``); skip when missing."""
    root = shared_root()
    if not (root / "reference").is_dir():
        pytest.skip(skip_reason(root / "reference"))
    return root
