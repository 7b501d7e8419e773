"""Where the bundled demo data lives (``resources/demo`` at the top of the repository)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from metrics.model import InputError, Problem, Severity

ROOT = Path(__file__).resolve().parents[1] / "resources" / "demo"


@dataclass(frozen=True)
class DemoPaths:
    gt: Path
    det_a: Path
    det_b: Path
    images: Path


def demo_paths() -> DemoPaths:
    """Paths of the demo GT, both demo detectors and the images; InputError if missing."""
    paths = DemoPaths(ROOT / "gt", ROOT / "det_a", ROOT / "det_b", ROOT / "images")
    if not paths.gt.is_dir():
        raise InputError(
            [
                Problem(
                    Severity.ERROR,
                    str(ROOT),
                    None,
                    "bundled demo data not found (install from a checkout with "
                    "`pip install -e .`, or give --gt and --det)",
                )
            ]
        )
    return paths
