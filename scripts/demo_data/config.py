"""Paths, fixed seeds, output limits and the type aliases shared by the generator."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OUT = ROOT / "resources" / "demo"
FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
SEED = 1234
JPEG_QUALITY = 85
MAX_BYTES = 2 * 1024 * 1024

Pt = tuple[int, int]
FPt = tuple[float, float]
Poly = list[Pt]
RGB = tuple[int, int, int]
