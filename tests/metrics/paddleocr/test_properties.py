"""Property tests of ``paddleocr_det_iou``: scores in [0, 1], detections equal to the care GT
score 1, and on integer boxes the numbers of the ICDAR15 protocol (TOOLKITS.md section 7)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.catalogue.registry import METRICS, make_params
from metrics.core.model import BoxType, Instance, Sample, ltrb_points

boxes = st.lists(
    st.tuples(st.integers(0, 300), st.integers(0, 300), st.integers(1, 120), st.integers(1, 60)),
    max_size=6,
)


def _inst(b: tuple[int, int, int, int], text: str | None, line: int) -> Instance:
    x, y, w, h = b
    return Instance(
        points=ltrb_points(x, y, x + w, y + h),
        box_type=BoxType.LTRB,
        text=text,
        dont_care=text == "###",
        line=line,
    )


def _sample(gt: list, det: list, dc: list[bool]) -> Sample:
    g = tuple(
        _inst(b, "###" if d else "WORD", k + 1)
        for k, (b, d) in enumerate(zip(gt, dc + [False] * len(gt), strict=False))
    )
    d = tuple(_inst(b, None, k + 1) for k, b in enumerate(det))
    return Sample("img_1", g, d, "gt:gt_img_1.txt", "det:res_img_1.txt")


def _eval(mid: str, s: Sample):  # type: ignore[no-untyped-def]
    spec = METRICS[mid]
    return spec.evaluate([s], make_params(spec))[0]


@settings(max_examples=80, deadline=None)
@given(gt=boxes.filter(bool), det=boxes, dc=st.lists(st.booleans(), max_size=6))
def test_scores_in_range_and_equal_to_icdar15(gt: list, det: list, dc: list) -> None:
    s = _sample(gt, det, dc)
    r, ic15 = _eval("paddleocr_det_iou", s), _eval("ic15_iou", s)
    for v in (r.recall, r.precision, r.hmean):
        assert 0.0 <= v <= 1.0
    assert (r.recall, r.precision, r.hmean) == (ic15.recall, ic15.precision, ic15.hmean)
    assert sorted((m.gt, m.det) for m in r.matches) == sorted((m.gt, m.det) for m in ic15.matches)


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_detections_equal_to_care_gt_score_one(data: st.DataObject) -> None:
    n = data.draw(st.integers(1, 6))
    gt = [
        (k * 200, 10, data.draw(st.integers(5, 150)), data.draw(st.integers(5, 50)))
        for k in range(n)
    ]
    dc = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
    det = [b for b, d in zip(gt, dc, strict=True) if not d]
    r = _eval("paddleocr_det_iou", _sample(gt, det, dc))
    assert (r.recall, r.precision) == (1.0, 1.0)  # also with no care GT at all (section 6)
