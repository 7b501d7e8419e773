"""The failure gallery's crops (``viewer.scene.gallery``): classes, filters and sorts over a
whole dataset, A and B; ``detlens gallery`` writes a contact sheet and an HTML page."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from metrics.catalogue.registry import resolve
from metrics.cli.main import main
from metrics.core.model import Dataset
from metrics.run.runner import run
from tests.support import box, boxes, dets, gts, rect, sample
from viewer.scene.gallery import SideInput, build, order, select


def _side(ds: Dataset, metric: str) -> SideInput:
    return SideInput(ds, run(ds, [resolve(metric)])[0])


def test_classes_filters_and_sorts() -> None:
    g = gts((rect(0, 0, 100, 20), "HELLO"), (rect(0, 40, 100, 80), "WORLD"))
    one = Dataset((sample(g, dets(rect(0, 0, 100, 20), rect(300, 300, 340, 310)), sid="x"),))
    crops = build([_side(one, "ic15_iou")])
    assert {(c.side, c.index, tuple(sorted(c.classes))) for c in crops} == {
        ("gt", 1, ("missed",)),
        ("det", 1, ("false_positive",)),
    }
    assert [c.index for c in select(crops, ["missed"])] == [1]
    assert select(crops, text="world")[0].side == "gt"
    assert select(crops, text="nothing") == []
    assert [c.side for c in order(crops, "size")] == ["det", "gt"]  # heights 10, 40
    with pytest.raises(ValueError, match="sort by one of"):
        order(crops, "colour")


def test_a_split_is_a_class_under_deteval() -> None:
    ds = Dataset(
        (sample([box(0, 0, 200, 20, "WORD")], list(boxes((0, 0, 100, 20), (100, 0, 200, 20)))),)
    )
    crops = build([_side(ds, "deteval")])
    assert {c.side for c in select(crops, ["split"])} == {"gt", "det"}


def test_gt_found_by_a_missed_by_b() -> None:
    g = gts((rect(0, 0, 100, 20), "AAAA"), (rect(0, 40, 100, 60), "BBBB"))
    a = Dataset((sample(g, dets(rect(0, 0, 100, 20), rect(0, 40, 100, 60))),))
    b = Dataset((sample(g, dets(rect(0, 0, 100, 20))),))
    crops = build([_side(a, "ic15_iou"), _side(b, "ic15_iou")])
    only = select(crops, ["a_only"])
    assert {(c.owner, c.index) for c in only} == {(0, 1), (1, 1)}
    assert [c.line for c in select(only, owners=[1])] == ["missed"]
    assert all(c.delta < 0 for c in only)  # the image's H(B) − H(A)


def _files(tmp_path: Path) -> tuple[Path, Path]:
    gt, det = tmp_path / "gt", tmp_path / "det"
    gt.mkdir()
    det.mkdir()
    for k in range(3):
        (gt / f"gt_img_{k}.txt").write_text(
            f"{rect(0, 0, 100, 20)},HELLO\n{rect(0, 40, 100, 60)},WORLD\n", encoding="utf-8"
        )
        (det / f"res_img_{k}.txt").write_text(f"{rect(0, 0, 100, 20)}\n", encoding="utf-8")
    return gt, det


def test_gallery_command_writes_a_contact_sheet(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gt, det = _files(tmp_path)
    out = tmp_path / "g"
    args = ["gallery", "--gt", str(gt), "--det", str(det), "--metric", "iou", "--out", str(out)]
    assert main(args) == 0
    assert "3 crops" in capsys.readouterr().out
    sheet = QImage(str(out / "sheet.png"))
    assert not sheet.isNull() and sheet.width() > 600
    page = (out / "index.html").read_text(encoding="utf-8")
    assert page.count("<figure>") == 3 and "img_0 GT 2: missed" in page
    assert main([*args, "--verdict", "lost"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--verdict lost: not one of" in err[0]


@pytest.mark.parametrize(
    "option", [["--verdict", "a_only"], ["--verdict", "missed,b_only"], ["--side", "b"]]
)
def test_a_comparison_option_with_one_det_is_a_mistake(
    option: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gt, det = _files(tmp_path)
    out = tmp_path / "g"
    args = ["gallery", "--gt", str(gt), "--det", str(det), "--metric", "iou", "--out", str(out)]
    assert main([*args, *option]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{option[0]} " in err[0] and "two --det (one given)" in err[0], err
    assert not out.exists()


def test_false_positives_of_b_that_a_did_not_make() -> None:
    g = gts((rect(0, 0, 100, 20), "WORD"))
    a = Dataset((sample(g, dets(rect(0, 0, 100, 20), rect(300, 300, 400, 320))),))
    b = Dataset(
        (sample(g, dets(rect(0, 0, 100, 20), rect(305, 300, 405, 320), rect(500, 0, 540, 30))),)
    )
    crops = build([_side(a, "ic15_iou"), _side(b, "ic15_iou")])
    assert [(c.owner, c.index) for c in select(crops, ["fp_b_only"])] == [(1, 2)]
    assert select(crops, ["fp_a_only"]) == []  # A's stray box: B made one there too


def test_two_metrics_on_one_detector_differ_per_instance() -> None:
    g = gts((rect(0, 0, 100, 20), "WORD"))
    ds = Dataset((sample(g, dets(rect(0, 0, 45, 20))),))  # IoU 0.45; 2 of 4 characters
    crops = build([_side(ds, "ic15_iou"), _side(ds, "tedeval")], detectors=False)
    assert {(c.owner, c.side) for c in select(crops, ["fp_a_only"])} == {(0, "det")}
    assert {(c.owner, c.side) for c in select(crops, ["b_only"])} == {(0, "gt"), (1, "gt")}
    assert select(crops, ["fp_b_only", "a_only"]) == []


def test_a_line_level_metric_crops_its_lines(tmp_path: Path) -> None:
    """HierText's line metric indexes the lines of its view, not the file's words: a missed
    line of two words is one crop around the line (it was the first word's box)."""
    from metrics.io.reader import load_dataset
    from tests.support import ht_files, ht_image, ht_line, ht_paragraph, ht_word

    line = ht_line([ht_word((10, 10, 40, 30)), ht_word((50, 10, 90, 30))], box=(10, 10, 90, 30))
    gt = [ht_image([ht_paragraph([line], box=(10, 10, 90, 30))])]
    det = [ht_image([])]
    ds = load_dataset(*ht_files(tmp_path, gt, det))
    spec = resolve("hiertext_line")
    crops = build([SideInput(ds, run(ds, [spec])[0], spec.view)])
    missed = select(crops, ["missed"])
    assert len(missed) == 1
    x0, _, x1, _ = missed[0].region
    assert x0 < 10 and x1 > 90  # the line, both words


def _dark(img: QImage, x0: int, y0: int, x1: int, y1: int) -> int:
    return sum(img.pixelColor(x, y).lightness() < 128 for x in range(x0, x1) for y in range(y0, y1))


def test_a_three_line_caption_is_drawn_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A long verdict line wraps to three lines: its row grows to hold them (the sheet cut
    the third line, "… matched elsewhere", at a fixed caption height)."""
    from PySide6.QtCore import QRectF, Qt
    from PySide6.QtGui import QColor, QFont, QPainter

    from viewer.gallery.cli import CAPTION_H, caption_rows
    from viewer.gallery.crops import TILE

    gt, det = tmp_path / "gt", tmp_path / "det"
    gt.mkdir()
    det.mkdir()
    sid = "img_of_a_rather_long_street_scene_name_1"
    (gt / f"gt_{sid}.txt").write_text(
        f"{rect(0, 0, 100, 20)},HELLO\n{rect(0, 4, 100, 24)},WORLD\n", encoding="utf-8"
    )
    (det / f"res_{sid}.txt").write_text(f"{rect(0, 0, 100, 20)}\n", encoding="utf-8")
    out = tmp_path / "g"
    assert (
        main(["gallery", "--gt", str(gt), "--det", str(det), "--metric", "iou", "--out", str(out)])
        == 0
    )
    page = (out / "index.html").read_text(encoding="utf-8")
    line = next(t for t in page.split("<figcaption>")[1:] if "matched elsewhere" in t)
    line = line.split("</figcaption>")[0]
    font = QFont()
    font.setPixelSize(11)
    (height,) = caption_rows([line], TILE.width(), font)
    assert height > CAPTION_H  # three lines: more than the old fixed height
    alone = QImage(TILE.width(), 3 * height, QImage.Format.Format_RGB32)  # the line, uncut
    alone.fill(QColor("#ffffff"))
    p = QPainter(alone)
    p.setFont(font)
    p.setPen(QColor("#111111"))
    flags = int(Qt.AlignmentFlag.AlignLeft | Qt.TextFlag.TextWordWrap | Qt.TextFlag.TextDontClip)
    p.drawText(QRectF(0, 0, TILE.width(), 3 * height), flags, line)
    p.end()
    sheet = QImage(str(out / "sheet.png"))
    top = 4 + TILE.height() + 2
    assert sheet.height() >= top + height
    assert _dark(sheet, 4, top, 4 + TILE.width(), sheet.height()) == _dark(
        alone, 0, 0, TILE.width(), alone.height()
    )
