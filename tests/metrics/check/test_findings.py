"""``metrics.check``: each kind of finding on a hand-made file, located by file and line."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest

from metrics.check import Level, check_dataset, exit_code, image_size
from metrics.check.shapes import crossings
from metrics.core.model import BoxType
from metrics.io.reader import LoadOptions, load_dataset


def _write(folder: Path, name: str, lines: list[str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text("\n".join(lines) + "\n")


def _codes(findings, code):  # type: ignore[no-untyped-def]
    return [f for f in findings if f.code == code]


def _check(tmp_path: Path, gt: list[str], det: list[str] | None = None, **kw):  # type: ignore[no-untyped-def]
    _write(tmp_path / "gt", "gt_img_1.txt", gt)
    if det is not None:
        _write(tmp_path / "det", "res_img_1.txt", det)
    ds = load_dataset(tmp_path / "gt", tmp_path / "det" if det is not None else None, **kw)
    return check_dataset(ds, with_metrics=False)


def test_bow_tie_reports_its_crossing(tmp_path: Path) -> None:
    found = _check(tmp_path, ["0,0,10,0,10,10,0,10,ok", "0,0,10,10,10,0,0,10,tie"])
    (f,) = _codes(found, "bow_tie")
    assert (f.line, f.side, f.index, f.level) == (2, "gt", 1, Level.WARNING)
    assert f.points == ((5.0, 5.0),)


def test_counter_clockwise_quad(tmp_path: Path) -> None:
    found = _check(tmp_path, ["0,0,0,10,10,10,10,0,ccw"])
    (f,) = _codes(found, "ccw_quad")
    assert f.line == 1 and f.source is not None and f.source.endswith("gt_img_1.txt")


def test_zero_area_and_few_points(tmp_path: Path) -> None:
    found = _check(tmp_path, ["0,0,10,0,20,0,30,0,line", "50,50,###", "0,0,9,0,0,9,tri"])
    assert [f.line for f in _codes(found, "zero_area")] == [1]
    assert [f.line for f in _codes(found, "few_points")] == [2, 3]


def test_float_coordinates_and_empty_care_text(tmp_path: Path) -> None:
    found = _check(tmp_path, ["0.5,0,10,0,10,10,0,10,a", "20,0,30,0,30,10,20,10,"])
    assert [f.line for f in _codes(found, "float_coords")] == [1]
    assert [f.line for f in _codes(found, "empty_care_text")] == [2]


def test_swallowed_coordinates_read_as_quad(tmp_path: Path) -> None:
    line = "0,0,10,0,20,5,30,10,20,20,10,20,curve"
    found = _check(tmp_path, [line], options=LoadOptions(gt_box_type=BoxType.QUAD))
    (f,) = _codes(found, "swallowed_coords")
    assert f.level is Level.ERROR and f.line == 1
    assert not _codes(_check(tmp_path / "poly", [line]), "swallowed_coords")


def test_a_numeric_transcription_is_not_swallowed(tmp_path: Path) -> None:
    found = _check(tmp_path, ["0,0,10,0,10,10,0,10,4,000"])
    assert not _codes(found, "swallowed_coords")


def test_duplicates_whatever_the_first_vertex(tmp_path: Path) -> None:
    found = _check(tmp_path, ["0,0,10,0,10,10,0,10,a", "10,0,10,10,0,10,0,0,a"])
    (f,) = _codes(found, "duplicate")
    assert f.line == 2 and "line 1" in f.message


def test_mixed_ltrb_and_quads_is_a_warning(tmp_path: Path) -> None:
    found = _check(tmp_path, ["0,0,10,0,10,10,0,10,a", "20,20,30,30,b"])
    (f,) = _codes(found, "mixed_types")
    assert f.level is Level.WARNING and f.line == 2


def _png(path: Path, w: int, h: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n"
        + struct.pack(">I", 13)
        + b"IHDR"
        + struct.pack(">II", w, h)
        + b"\x08\x02\x00\x00\x00"
    )


def test_box_outside_the_image_gives_the_part_outside(tmp_path: Path) -> None:
    _png(tmp_path / "img" / "img_1.png", 100, 50)
    assert image_size(tmp_path / "img" / "img_1.png") == (100, 50)
    found = _check(
        tmp_path, ["80,0,120,0,120,10,80,10,a", "0,0,10,0,10,10,0,10,b"], images=tmp_path / "img"
    )
    (f,) = _codes(found, "outside_image")
    assert f.line == 1 and "50%" in f.message
    (region,) = f.regions
    assert sorted(map(tuple, region.tolist())) == [(100, 0), (100, 10), (120, 0), (120, 10)]


def test_jpeg_size_from_header() -> None:
    root = Path(__file__).resolve().parents[3] / "resources" / "demo" / "images"
    size = image_size(root / "img_1.jpg")
    assert size is not None and size[0] > 100 and size[1] > 100
    assert image_size(Path(__file__)) is None


def test_pairing_findings(tmp_path: Path) -> None:
    _write(tmp_path / "gt", "gt_img_1.txt", ["0,0,10,0,10,10,0,10,a"])
    _write(tmp_path / "gt", "gt_img_2.txt", ["0,0,10,0,10,10,0,10,a"])
    _write(tmp_path / "det", "res_img_1.txt", ["0,0,10,0,10,10,0,10"])
    _write(tmp_path / "det", "res_zzz.txt", ["0,0,10,0,10,10,0,10"])
    found = check_dataset(load_dataset(tmp_path / "gt", tmp_path / "det"), with_metrics=False)
    assert [f.sample_id for f in _codes(found, "gt_without_det")] == ["img_2"]
    assert len(_codes(found, "det_without_gt")) == 1
    assert exit_code(found) == 1


def test_no_pairs_and_all_empty(tmp_path: Path) -> None:
    _write(tmp_path / "gt", "gt_img_1.txt", ["0,0,10,0,10,10,0,10,a"])
    _write(tmp_path / "det", "res_img_1.txt", [""])
    found = check_dataset(load_dataset(tmp_path / "gt", tmp_path / "det"), with_metrics=False)
    assert _codes(found, "no_detections")


def test_crossings_of_a_convex_ring_are_none() -> None:
    assert crossings(np.array([[0, 0], [10, 0], [10, 10], [0, 10]], dtype=float)) == []


@pytest.mark.parametrize(
    ("name", "shift", "expect"),
    [
        ("swap", lambda p: p[:, ::-1].copy(), "x and y swapped"),
        ("half", lambda p: p * 0.5, "another scale"),
        ("shift", lambda p: p + np.array([300, 200]), "shifted by (+300, +200)"),
        ("unit", lambda p: p / [2000, 1000], "normalised to 0-1"),
    ],
)
def test_why_everything_is_zero(tmp_path: Path, name: str, shift, expect: str) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(3)
    gt, det = [], []
    for _ in range(30):
        x, y = rng.uniform(0, 1500), rng.uniform(0, 600)
        w, h = rng.uniform(40, 200), rng.uniform(15, 40)
        box = np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]]).round()
        gt.append(",".join(str(int(v)) for v in box.ravel()) + ",w")
        moved = np.asarray(shift(box), dtype=float)
        det.append(",".join(f"{v:.6f}" for v in moved.ravel()))
    found = _check(tmp_path, gt, det)
    (f,) = _codes(found, "det_transform")
    assert expect in f.message and f.level is Level.ERROR
    assert not _codes(_check(tmp_path / "same", gt, gt), "det_transform")


def test_polygon_order_judged_against_curved_tiou(tmp_path: Path) -> None:
    clockwise = "0,0,10,0,20,0,20,10,10,10,0,10,a"  # on screen: right, then back left below
    reverse = "0,10,10,10,20,10,20,0,10,0,0,0,b"
    found = _check(tmp_path, [clockwise, reverse])
    assert [f.line for f in _codes(found, "poly_order")] == [1]
    assert all(f.level is Level.INFO for f in _codes(found, "poly_order"))


def test_counter_clockwise_quads_on_polygon_data_are_info(tmp_path: Path) -> None:
    polys = [f"{x},0,{x + 5},0,{x + 9},0,{x + 9},9,{x},9,w" for x in (0, 20, 40)]
    found = _check(tmp_path, [*polys, "60,0,60,9,69,9,69,0,ccw"])
    (f,) = _codes(found, "ccw_quad")
    assert f.level is Level.INFO and "polygon data" in f.message


def test_swapped_gt_and_detections(tmp_path: Path) -> None:
    found = _check(tmp_path, ["0,0,10,0,10,10,0,10"], ["0,0,10,0,10,10,0,10,word"])
    assert _codes(found, "gt_det_swapped")


def test_invalid_ring_without_crossing(tmp_path: Path) -> None:
    # a spike: the ring goes out to (20, 5) and straight back
    found = _check(tmp_path, ["0,0,10,0,10,5,20,5,10,5,10,10,0,10,spike"])
    assert _codes(found, "invalid_ring") and not _codes(found, "bow_tie")


def test_demo_findings_are_labelled_as_the_demo_s() -> None:
    from metrics.check import check_dataset as check
    from metrics.io.demo import demo_paths

    d = demo_paths()
    found = check(load_dataset(d.gt, d.det_b, images=d.images))
    assert found and all(f.level is Level.INFO for f in found)
    demo = [f for f in found if "[demo:" in f.message]
    assert {f.code for f in demo} == {"metric_skips", "mixed_types"}
    assert all(f.sample_id == "img_8" and f.line is not None for f in demo)


def _boxes(rng: np.random.Generator, n: int, w: int, h: int) -> list[np.ndarray]:
    """``n`` word quads inside a w x h image, one reaching its far corner."""
    out = [np.array([[w - 120, h - 30], [w, h - 30], [w, h], [w - 120, h]], dtype=float)]
    for _ in range(n - 1):
        x, y = rng.uniform(0, w - 200), rng.uniform(0, h - 40)
        bw, bh = rng.uniform(40, 200), rng.uniform(15, 40)
        out.append(np.array([[x, y], [x + bw, y], [x + bw, y + bh], [x, y + bh]]).round())
    return out


def _shrunk(box: np.ndarray) -> np.ndarray:
    """A detection 8 % smaller than its GT around the same centre (IoU about 0.85)."""
    c = box.mean(axis=0)
    out: np.ndarray = c + (box - c) * 0.92
    return out


def _normalised_set(tmp_path: Path, sizes: list[tuple[int, int]]) -> Path:
    """GT in pixels and detections divided by their image's size, one image per size."""
    rng = np.random.default_rng(5)
    for k, (w, h) in enumerate(sizes, 1):
        gts = _boxes(rng, 12, w, h)
        _write(tmp_path / "gt", f"gt_img_{k}.txt", [_line(b) + ",w" for b in gts])
        dets = [_shrunk(b) / [w, h] for b in gts]
        _write(
            tmp_path / "det",
            f"res_img_{k}.txt",
            [",".join(f"{v:.6f}" for v in d.ravel()) for d in dets],
        )
        _png(tmp_path / "img" / f"img_{k}.png", w, h)
    return tmp_path


def _line(box: np.ndarray) -> str:
    return ",".join(str(int(v)) for v in box.ravel())


def test_normalised_detections_by_the_gt_extent(tmp_path: Path) -> None:
    root = _normalised_set(tmp_path, [(1280, 720)] * 4)
    found = check_dataset(load_dataset(root / "gt", root / "det"), with_metrics=False)
    (f,) = _codes(found, "det_transform")
    assert f.level is Level.ERROR
    assert "normalised to 0-1 (multiplied back by the GT extent, 1280x720)" in f.message
    assert "0.00 as given and 1.00 with that undone" in f.message
    assert "multiply x by the image width and y by its height" in f.message


def test_normalised_detections_by_the_image_sizes(tmp_path: Path) -> None:
    root = _normalised_set(tmp_path, [(1280, 720), (640, 480), (1600, 1200), (500, 900)])
    ds = load_dataset(root / "gt", root / "det", images=root / "img")
    (f,) = _codes(check_dataset(ds, with_metrics=False), "det_transform")
    assert "multiplied back by the image sizes" in f.message
    assert "1.00 with that undone; multiply x by the image width" in f.message
