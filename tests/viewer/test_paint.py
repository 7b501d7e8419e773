"""Painting into a QImage without a window: colours at known places (pixel snapshots)."""

from __future__ import annotations

import numpy as np
from PySide6.QtGui import QColor, QImage, QPainter

from metrics.core.model import BoxType, Instance, Sample
from metrics.core.results import InstanceResult, SampleResult, Tally, Verdict
from viewer.paint.painter import RenderContext, paint_overlay
from viewer.paint.style import fill_color, stroke_color
from viewer.scene.overlay import build_overlay
from viewer.scene.palette import StyleKey


def _img() -> QImage:
    img = QImage(200, 100, QImage.Format.Format_ARGB32)
    img.fill(QColor("#000000"))
    return img


def _sample() -> tuple[Sample, SampleResult]:
    g = Instance(np.array([[10.0, 10], [90, 10], [90, 50], [10, 50]]), BoxType.QUAD, "AB")
    d = Instance(np.array([[110.0, 10], [190, 10], [190, 50], [110, 50]]), BoxType.QUAD)
    s = Sample("img_1", (g,), (d,))
    r = SampleResult(
        "ic15_iou",
        "img_1",
        0.0,
        0.0,
        0.0,
        Tally("credit", {}),
        gt=(InstanceResult(0, Verdict.MISSED),),
        det=(InstanceResult(0, Verdict.FALSE_POSITIVE),),
    )
    return s, r


def _paint(layers: set[str]) -> QImage:
    s, r = _sample()
    img = _img()
    p = QPainter(img)
    paint_overlay(p, build_overlay(s, r), RenderContext(frozenset(layers), scale=1.0))
    p.end()
    return img


def _near(c: QColor, hex_color: str, tol: int = 60) -> bool:
    want = QColor(hex_color)
    return all(
        abs(a - b) <= tol
        for a, b in ((c.red(), want.red()), (c.green(), want.green()), (c.blue(), want.blue()))
    )


def test_missed_gt_is_red_and_false_positive_magenta() -> None:
    img = _paint({"gt", "det"})
    assert _near(img.pixelColor(50, 10), stroke_color(StyleKey.GT_MISSED))
    assert _near(img.pixelColor(10, 30), stroke_color(StyleKey.GT_MISSED))
    fp = [img.pixelColor(x, 10) for x in range(112, 188)]
    assert any(_near(c, stroke_color(StyleKey.DET_FALSE_POSITIVE)) for c in fp)
    assert img.pixelColor(100, 80) == QColor("#000000")


def test_hidden_layers_are_not_painted() -> None:
    img = _paint({"det"})
    assert img.pixelColor(50, 10) == QColor("#000000")


def test_markers_keep_screen_size_when_zoomed() -> None:
    s, r = _sample()
    from viewer.scene.items import DrawItem

    item = DrawItem("pcc", "points", np.array([[50.0, 25.0]]), "pcc.missed")
    sizes = []
    for scale in (1.0, 4.0):
        img = QImage(int(200 * scale), int(100 * scale), QImage.Format.Format_ARGB32)
        img.fill(QColor("#000000"))
        p = QPainter(img)
        p.scale(scale, scale)
        paint_overlay(p, [item], RenderContext(frozenset({"pcc"}), scale=scale))
        p.end()
        row = [img.pixelColor(x, int(25 * scale)) for x in range(img.width())]
        sizes.append(sum(_near(c, fill_color(StyleKey.PCC_MISSED)) for c in row))
    assert sizes[0] > 0 and abs(sizes[0] - sizes[1]) <= 2
    del s, r


def _many_missed(n: int) -> tuple[Sample, SampleResult]:
    """n missed GT words in a row, each with a label due (it lost credit)."""
    gts = tuple(
        Instance(
            np.array([[0.0, 12 * k], [60, 12 * k], [60, 12 * k + 10], [0, 12 * k + 10]]),
            BoxType.QUAD,
            "AB",
        )
        for k in range(n)
    )
    r = SampleResult(
        "ic15_iou",
        "img_1",
        0.0,
        0.0,
        0.0,
        Tally("credit", {}),
        gt=tuple(InstanceResult(k, Verdict.MISSED) for k in range(n)),
        det=(),
    )
    return Sample("img_1", gts, ()), r


def test_labels_beyond_the_cap_are_counted_not_dropped_silently(qapp: object) -> None:
    from viewer.paint.painter import MAX_LABELS, PreparedOverlay

    s, r = _many_missed(MAX_LABELS + 30)
    prep = PreparedOverlay(build_overlay(s, r))
    img = QImage(400, 400, QImage.Format.Format_ARGB32)
    p = QPainter(img)
    room = (-400.0, -50.0, 800.0, 12.0 * (MAX_LABELS + 30) + 50)  # every label has a spot
    ctx = RenderContext(layers=frozenset({"gt", "labels"}), scale=1.0, visible=room)
    paint_overlay(p, prep, ctx)
    p.end()
    assert prep.labels_left_out == 30
    few, r_few = _many_missed(5)
    prep_few = PreparedOverlay(build_overlay(few, r_few))
    p = QPainter(img)
    paint_overlay(p, prep_few, RenderContext(layers=frozenset({"gt", "labels"}), scale=2.0))
    p.end()
    assert prep_few.labels_left_out == 0


def test_polygons_are_copied_point_for_point() -> None:
    from viewer.paint.painter import polygons

    rings = [np.array([[1.5, 2.0], [3.0, 4.25], [5.0, -6.5]]), np.zeros((0, 2)), np.eye(2)]
    got = [[(q.at(i).x(), q.at(i).y()) for i in range(q.size())] for q in polygons(rings)]
    assert got == [[(1.5, 2.0), (3.0, 4.25), (5.0, -6.5)], [], [(1.0, 0.0), (0.0, 1.0)]]


def test_polygons_in_bulk_keep_every_point_and_box() -> None:
    """The one-path route (every ring of two points or more) and the one-by-one route (a
    ring too short, or a coordinate the stream would drop) give the same polygons."""
    from viewer.paint.qt_bulk import polygons_and_boxes

    def pts(q: object) -> list[tuple[float, float]]:
        return [(q.at(i).x(), q.at(i).y()) for i in range(q.size())]  # type: ignore[attr-defined]

    rng = np.random.default_rng(7)
    rings = [rng.normal(0, 1e4, (n, 2)) for n in (4, 2, 9, 4, 3)]
    for extra in ([], [np.array([[1e200, 0.0], [0.0, 1.0]])], [np.array([[np.nan, 1.0]] * 3)]):
        polys, boxes = polygons_and_boxes(rings + extra)
        assert len(polys) == len(rings + extra)
        for q, r in zip(polys, rings + extra, strict=True):
            np.testing.assert_array_equal(np.array(pts(q)).reshape(-1, 2), r)  # NaN == NaN here
        want = [np.r_[r.min(axis=0), r.max(axis=0)] for r in rings]
        np.testing.assert_array_equal(boxes[: len(rings)], want)
    polys, boxes = polygons_and_boxes([np.zeros((0, 2)), np.array([[2.0, 3.0]])])
    assert [q.size() for q in polys] == [0, 1]
    np.testing.assert_array_equal(boxes, [[0, 0, 0, 0], [2, 3, 2, 3]])


def test_a_link_of_no_length_is_not_drawn() -> None:
    # two identical shapes: the link's ends coincide, and a dot would stand for nothing
    from viewer.paint.painter import PreparedOverlay
    from viewer.scene.items import DrawItem

    segments = np.array([[[5.0, 5.0], [5.0, 5.0]], [[10.0, 10.0], [40.0, 20.0]]])
    data = {"texts": ["IoU 1.00", "IoU 0.60"], "refs": [("det", 0), ("det", 1)]}
    link = DrawItem("links", "lines", segments, StyleKey.LINK_ONE_TO_ONE, data=data)
    lines = PreparedOverlay([link]).lines[0]
    assert [(lines[k].x(), lines[k].y()) for k in range(lines.size())] == [(10, 10), (40, 20)]
