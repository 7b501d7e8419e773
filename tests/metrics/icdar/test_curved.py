"""Curved IoU / SIoU / TIoU (Total-Text, CTW1500): float32 coordinates and the greedy
match of spec 3.10 E5, and the orientation check of 3.9 C1."""

from __future__ import annotations

import pytest

from metrics.icdar import curved
from tests.support import dets, gts, run_one, sample


def test_curved_float_coordinates_and_greedy() -> None:  # 3.10 E5
    s = sample(
        gts(("0,0,0,20,100,20,100,0", "ABCDE"), ("100,0,100,20,150,20,150,0", "###")),
        dets("0,0,0,20,60.5,20,60.5,0", "0.1,0,0.1,20,120.3,20,120.3,0"),
    )
    p = curved.CurvedParams()
    assert curved.validate(s, p) == []
    o = run_one("curved_iou", s, p)
    si = run_one("curved_siou", s, p)
    r = curved.evaluate_sample(s, p)
    assert (o.recall, o.precision) == (1.0, 0.5)
    assert (si.recall, si.precision) == pytest.approx((0.605, 0.3025))
    assert (r.recall, r.precision) == pytest.approx((0.366025, 0.3025))
    assert r.det[1].near_miss.value == pytest.approx(0.8304239, abs=1e-6)


def test_curved_refuses_icdar_orientation_unless_auto_orient() -> None:  # 3.9 C1
    s = sample(gts(("0,0,100,0,100,20,0,20", "ABCDE")), dets("0,0,100,0,100,20,0,20"))
    problems = curved.validate(s, curved.CurvedParams())
    assert len(problems) == 2 and "ICDAR order (clockwise as drawn" in problems[0].message
    assert problems[0].line == 1 and problems[0].source == "gt:gt_img_1.txt"
    p = curved.CurvedParams(auto_orient=True)
    assert curved.validate(s, p) == []
    assert curved.evaluate_sample(s, p).recall == 1.0
