"""Where the bundled demo data lives.

``resources/demo`` at the top of the repository, installed (also in wheels) as the package
``detlens_resources`` and found with ``importlib.resources``; a checkout that was not
installed falls back to the folder beside the package.
"""

from __future__ import annotations

import importlib.resources
from pathlib import Path

from metrics.core.model import InputError, Problem, Severity
from metrics.core.records import dataclass

_CHECKOUT = Path(__file__).resolve().parents[1] / "resources" / "demo"


def demo_root() -> Path:
    """The demo folder: the installed ``detlens_resources`` package, else the checkout's."""
    try:
        found = importlib.resources.files("detlens_resources") / "demo"
    except ModuleNotFoundError:
        return _CHECKOUT
    return Path(str(found)) if found.is_dir() else _CHECKOUT


@dataclass(frozen=True)
class DemoPaths:
    """Where the demo GT, both demo detectors and the images are."""

    gt: Path
    det_a: Path
    det_b: Path
    images: Path


def demo_paths() -> DemoPaths:
    """Paths of the demo GT, both demo detectors and the images; InputError if missing."""
    root = demo_root()
    paths = DemoPaths(root / "gt", root / "det_a", root / "det_b", root / "images")
    if not paths.gt.is_dir():
        raise InputError(
            [
                Problem(
                    Severity.ERROR,
                    str(root),
                    None,
                    "bundled demo data not found (reinstall detlens, or give --gt and --det)",
                )
            ]
        )
    return paths
