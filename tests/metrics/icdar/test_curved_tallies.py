"""curved_* when only tallies are read: the tallies of the whole evaluation, fewer pairs
clipped."""

from __future__ import annotations

import numpy as np
import pytest

from metrics.core.model import BoxType, Instance, Sample
from metrics.icdar import curved
from metrics.icdar.params import CurvedParams
from metrics.shapes.mode import Detail, Mode


def _inst(points: np.ndarray, dont_care: bool = False, line: int = 1) -> Instance:
    return Instance(
        points=points,
        box_type=BoxType.POLY,
        text="###" if dont_care else "A",
        line=line,
        dont_care=dont_care,
    )


def _band(x: float, y: float, w: float, h: float, bend: float) -> np.ndarray:
    xs = x + w * np.array([0.0, 0.33, 0.67, 1.0])
    top = y + bend * np.array([0.0, 1.0, 1.0, 0.0])
    return np.stack([np.r_[xs, xs[::-1]], np.r_[top, top[::-1] + h]], axis=1)


def _samples() -> list[Sample]:
    rng = np.random.default_rng(3)
    out = []
    for s in range(8):
        gt = [_band(*rng.uniform([0, 0, 30, 10, -5], [300, 300, 90, 25, 5])) for _ in range(6)]
        det = [g + rng.normal(0, 4, size=g.shape) for g in gt[:5]]
        det.append(gt[5] + [3.0, 0.0])  # on a don't-care GT
        det.append(np.vstack([gt[0][:4], gt[1][4:]]))  # spans two GTs: outliers under TIoU
        det.append(gt[2] + [0.5 * (gt[2][3, 0] - gt[2][0, 0]), 0.0])  # IoU near 1/3
        out.append(
            Sample(
                id=f"img_{s}",
                gt=tuple(_inst(g, dont_care=k == 5, line=k + 1) for k, g in enumerate(gt)),
                det=tuple(_inst(d, line=k + 1) for k, d in enumerate(det)),
            )
        )
    return out


@pytest.mark.parametrize(
    "run", [curved.evaluate_batch_iou, curved.evaluate_batch_siou, curved.evaluate_batch]
)
@pytest.mark.parametrize("threshold", [0.5, 0.3])
def test_tallies_are_those_of_the_whole_evaluation(run: object, threshold: float) -> None:
    samples = _samples()
    params = CurvedParams(iou_threshold=threshold, auto_orient=True)
    whole = run(samples, params, Mode(Detail.FULL))  # type: ignore[operator]
    light = run(samples, params, Mode(Detail.TALLIES))  # type: ignore[operator]
    assert [r.tally for r in light] == [r.tally for r in whole]
    assert [r.extra for r in light] == [r.extra for r in whole]
    assert sum(r.tally["n_matched"] for r in whole) > 0
    assert not any(r.complete for r in light)


def test_pairs_that_cannot_match_are_not_clipped() -> None:
    far_apart = _band(0, 0, 100, 20, 0)  # evaluated as given (no validation here)
    sample = Sample(
        id="img_1",
        gt=(_inst(far_apart),),
        # bounding box meets the GT's, area far too small for IoU > 0.5
        det=(_inst(np.array([[95.0, 15.0], [110.0, 15.0], [110.0, 30.0], [95.0, 30.0]])),),
    )
    mode = Mode(Detail.TALLIES)
    (r,) = curved.evaluate_batch_iou([sample], CurvedParams(), mode)  # same sample objects
    assert r.tally["n_matched"] == 0
    lz = mode.cache.lazy([sample], "curved")
    assert len(lz.f.pi) == 1 and not lz.clipped().any()
