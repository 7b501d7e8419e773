"""False positives one detector made and the other did not (the gallery's "false positives of
B that A did not make"): the same place means a false positive of the other side at IoU >= 0.5."""

from __future__ import annotations

from metrics.analysis.fp_diff import false_positives_only
from metrics.catalogue.registry import resolve
from metrics.core.model import Dataset
from metrics.run.runner import run
from tests.support import dets, gts, rect, sample


def test_a_false_positive_in_the_same_place_is_shared() -> None:
    g = gts((rect(0, 0, 100, 20), "WORD"))
    a = sample(g, dets(rect(0, 0, 100, 20), rect(300, 300, 400, 320)))
    # B: the same stray box shifted a little (IoU 0.82), and one of its own
    b = sample(g, dets(rect(0, 0, 100, 20), rect(305, 300, 405, 320), rect(500, 0, 540, 30)))
    spec = resolve("ic15_iou")
    ra = run(Dataset((a,)), [spec])[0].results["img_1"]
    rb = run(Dataset((b,)), [spec])[0].results["img_1"]
    assert false_positives_only(b.det, rb, a.det, ra) == (2,)
    assert false_positives_only(a.det, ra, b.det, rb) == ()
    far = sample(g, dets(rect(0, 0, 100, 20), rect(360, 300, 460, 320)))  # IoU 0.25 with A's
    rf = run(Dataset((far,)), [spec])[0].results["img_1"]
    assert false_positives_only(far.det, rf, a.det, ra) == (1,)
    assert false_positives_only(b.det, rb, a.det, None) == ()  # no result on the other side
