"""Shared test set-up: offscreen Qt, and where ../shared is (conformance tests skip without it)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("DETLENS_SHARED", ROOT.parent / "shared"))


def shared_or_skip(*parts: str) -> Path:
    """A path inside ../shared, or skip the test with the reason."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(
            f"{path} not found: conformance data lives in ../shared beside the repo "
            "(set DETLENS_SHARED to point elsewhere)"
        )
    return path
