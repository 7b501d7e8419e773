"""Golden snapshots of the canvas painting (``golden_cases``): a drawing regression (a colour,
a stroke, a region, a marker gone or moved) changes more than the tolerance and fails.

After a deliberate change: ``python scripts/make_golden.py``, look at the PNGs, commit them.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from tests.viewer.golden_cases import AREA_TOL, CASES, GOLDEN, LAYERS, Case, difference, render


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_canvas_painting_matches_its_golden_snapshot(
    qapp: object, case: Case, tmp_path: Path
) -> None:
    golden = QImage(str(GOLDEN / f"{case.name}.png"))
    assert not golden.isNull(), f"missing {case.name}.png: run scripts/make_golden.py"
    painted = render(case)
    share = difference(painted, golden)
    if share > AREA_TOL:
        painted.save(str(tmp_path / f"{case.name}.png"))
    assert share <= AREA_TOL, f"{share:.2%} of the pixels differ; painted: {tmp_path}"


@pytest.mark.parametrize("gone", ["det", "tiou"])
def test_a_layer_not_painted_fails_the_comparison(qapp: object, gone: str) -> None:
    """The tolerance lets antialiasing through, not a missing part of the drawing."""
    golden = QImage(str(GOLDEN / f"{CASES[0].name}.png"))
    assert difference(render(CASES[0], LAYERS - {gone}), golden) > AREA_TOL
