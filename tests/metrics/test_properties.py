"""Property tests: scores stay in [0, 1], perfect detections score 1, readers never crash."""

from __future__ import annotations

import contextlib
import zipfile
from io import BytesIO
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from metrics.catalogue.registry import METRICS, make_params
from metrics.core.model import BoxType, InputError, Instance, Sample, ltrb_points
from metrics.core.results import aggregate
from metrics.io.icdar.lines import DetSchema, LineError, parse_det_line, parse_gt_line
from metrics.io.reader import load_dataset

SCORING = ["ic15_iou", "siou", "tiou", "deteval"]


@st.composite
def boxes(draw: st.DrawFn, n_max: int = 6) -> list[tuple[int, int, int, int]]:
    n = draw(st.integers(0, n_max))
    out = []
    for _ in range(n):
        x = draw(st.integers(0, 300))
        y = draw(st.integers(0, 300))
        out.append((x, y, x + draw(st.integers(1, 120)), y + draw(st.integers(1, 60))))
    return out


def _inst(b: tuple[int, int, int, int], text: str | None, line: int) -> Instance:
    return Instance(
        points=ltrb_points(*b), box_type=BoxType.LTRB, text=text, dont_care=text == "###", line=line
    )


def _sample(
    gt: list[tuple[int, int, int, int]], det: list[tuple[int, int, int, int]], dc: list[bool]
) -> Sample:
    g = tuple(
        _inst(b, "###" if d else "WORD", k + 1)
        for k, (b, d) in enumerate(zip(gt, dc, strict=False))
    )
    return Sample(
        "img_1",
        g,
        tuple(_inst(b, None, k + 1) for k, b in enumerate(det)),
        "gt:gt_img_1.txt",
        "det:res_img_1.txt",
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(gt=boxes(), det=boxes(), dc=st.lists(st.booleans(), min_size=6, max_size=6))
def test_scores_are_between_zero_and_one(gt: list, det: list, dc: list) -> None:
    s = _sample(gt, det, dc)
    for mid in SCORING:
        spec = METRICS[mid]
        r = spec.evaluate([s], make_params(spec))[0]
        for v in (r.recall, r.precision, r.hmean):
            assert 0.0 <= v <= 1.0 + 1e-12, (mid, v)
        summary = aggregate([r])
        assert 0.0 <= summary.recall <= 1.0 + 1e-12
        assert 0.0 <= summary.precision <= 1.0 + 1e-12


def _disjoint(draw: st.DrawFn) -> list[tuple[int, int, int, int]]:
    n = draw(st.integers(1, 6))
    return [
        (k * 200, 10, k * 200 + draw(st.integers(20, 150)), 10 + draw(st.integers(10, 50)))
        for k in range(n)
    ]


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_detections_equal_to_care_gt_score_one(data: st.DataObject) -> None:
    gt = _disjoint(data.draw)
    dc = data.draw(st.lists(st.booleans(), min_size=len(gt), max_size=len(gt)))
    det = [b for b, d in zip(gt, dc, strict=True) if not d]
    s = _sample(gt, det, dc)
    for mid in ["ic15_iou", "siou", "tiou"]:
        spec = METRICS[mid]
        r = spec.evaluate([s], make_params(spec))[0]
        assert (r.recall, r.precision) == (1.0, 1.0), mid


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_order_of_disjoint_instances_does_not_change_totals(data: st.DataObject) -> None:
    gt = _disjoint(data.draw)
    det = [(a + data.draw(st.integers(-5, 5)), b, c, d) for a, b, c, d in gt]
    perm = data.draw(st.permutations(range(len(det))))
    s1 = _sample(gt, det, [False] * len(gt))
    s2 = _sample(gt, [det[k] for k in perm], [False] * len(gt))
    for mid in SCORING:
        spec = METRICS[mid]
        r1, r2 = (
            spec.evaluate([s1], make_params(spec))[0],
            spec.evaluate([s2], make_params(spec))[0],
        )
        assert np.isclose(r1.recall, r2.recall) and np.isclose(r1.precision, r2.precision)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_line_parsers_raise_only_their_own_error(line: str) -> None:
    for parse in (
        lambda: parse_gt_line(line, 1),
        lambda: parse_det_line(line, 1, DetSchema(True, True)),
        lambda: parse_det_line(line, 1, DetSchema()),
        lambda: parse_gt_line(line, 1, BoxType.QUAD),
    ):
        with contextlib.suppress(LineError):
            parse()


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(gt=st.binary(max_size=200), det=st.binary(max_size=200))
def test_readers_never_crash_on_random_bytes(tmp_path: Path, gt: bytes, det: bytes) -> None:
    for name, data in (("gt.zip", {"gt_img_1.txt": gt}), ("det.zip", {"res_img_1.txt": det})):
        buf = BytesIO()
        with zipfile.ZipFile(buf, "w") as zf:
            for member, payload in data.items():
                zf.writestr(member, payload)
        (tmp_path / name).write_bytes(buf.getvalue())
    (tmp_path / "raw.txt").write_bytes(gt)
    try:
        ds = load_dataset(tmp_path / "gt.zip", tmp_path / "det.zip")
        assert [s.id for s in ds] == ["img_1"]
        load_dataset(tmp_path / "raw.txt")
    except InputError:
        pass
