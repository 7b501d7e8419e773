"""``detlens export``: PNGs through the window's painter, index, state files that restore."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QImage

from metrics.cli.main import main
from metrics.io.demo import demo_paths
from viewer.export.render import HEADER_PX
from viewer.paint.style import stroke_color
from viewer.scene.palette import StyleKey


def _near(img: QImage, x: int, y: int, hex_color: str, tol: int = 60) -> bool:
    c, want = img.pixelColor(x, y), QColor(hex_color)
    return all(
        abs(a - b) <= tol
        for a, b in ((c.red(), want.red()), (c.green(), want.green()), (c.blue(), want.blue()))
    )


def test_export_worst_writes_pngs_index_and_state(qtbot, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert main(["export", "--metric", "tiou", "--worst", "3", "--out", str(out)]) == 0
    pngs = sorted(out.glob("*.png"))
    assert len(pngs) == 3 and not list(out.glob(".*.tmp"))
    rows = list(csv.DictReader((out / "index.csv").open()))
    assert [r["image"] for r in rows] == [
        p.name for p in sorted(pngs, key=lambda p: [r["image"] for r in rows].index(p.name))
    ]
    hmeans = [float(r["hmean"]) for r in rows]
    assert hmeans == sorted(hmeans)  # worst first
    assert "<img src=" in (out / "index.html").read_text()
    state = json.loads(pngs[0].with_suffix(".json").read_text())
    assert state["metric"] == "tiou" and state["sample"] == pngs[0].stem
    assert Path(state["gt"]).is_absolute() and state["params"]["tolerance"] == 0.01


def test_exported_pixels_show_the_layers_asked_for(qtbot, tmp_path: Path) -> None:
    d = demo_paths()
    common = [
        "export",
        "--gt",
        str(d.gt),
        "--det",
        str(d.det_b),
        "--images",
        str(d.images),
        "--metric",
        "tiou",
        "--samples",
        "img_4",
    ]
    assert main([*common, "--layers", "gt", "--out", str(tmp_path / "gt")]) == 0
    img = QImage(str(tmp_path / "gt" / "img_4.png"))
    # GRILL (GT line 3: 395,220 - 575,280) is missed by detector B: red outline on white
    assert _near(img, 485, 220 + HEADER_PX, stroke_color(StyleKey.GT_MISSED))
    # RESTAURANT (line 1: 212,60 - 812,160) is cropped by B: TIoU partial, orange
    assert _near(img, 500, 60 + HEADER_PX, stroke_color(StyleKey.GT_PARTIAL))
    assert main([*common, "--layers", "image", "--out", str(tmp_path / "img")]) == 0
    plain = QImage(str(tmp_path / "img" / "img_4.png"))
    assert not _near(plain, 485, 220 + HEADER_PX, stroke_color(StyleKey.GT_MISSED), tol=20)
    assert plain.height() < img.height()  # no legend without layers that draw


def test_two_detectors_side_by_side_and_state_restores(qtbot, tmp_path: Path) -> None:
    d = demo_paths()
    out = tmp_path / "pair"
    assert (
        main(
            [
                "export",
                "--gt",
                str(d.gt),
                "--det",
                str(d.det_a),
                "--det",
                str(d.det_b),
                "--images",
                str(d.images),
                "--samples",
                "img_7",
                "--metric",
                "tedeval",
                "--set",
                "area_recall=0.5",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    img = QImage(str(out / "img_7.png"))
    assert img.width() == 2 * 640
    shot = tmp_path / "restored.png"
    assert main(["view", "--state", str(out / "img_7.json"), "--screenshot", str(shot)]) == 0
    assert shot.exists()


def test_export_refuses_to_write_next_to_inputs(qtbot, tmp_path: Path, capsys) -> None:
    d = demo_paths()
    code = main(["export", "--gt", str(d.gt), "--det", str(d.det_b), "--out", str(d.det_b)])
    assert code == 2 and "next to the input" in capsys.readouterr().err
    assert not list(Path(d.det_b).glob("*.png"))


def test_two_detection_files_of_the_same_name_get_two_names(
    qtbot, tmp_path: Path, monkeypatch
) -> None:
    """``run1/det`` and ``run2/det``: the panels read ``det`` and ``det'`` (as ``compare``
    names them), not ``det`` twice."""
    import shutil

    import viewer.export.render as render

    d = demo_paths()
    for run in ("run1", "run2"):
        (tmp_path / run).mkdir()
        shutil.copytree(d.det_a, tmp_path / run / "det")
    seen: list[list[str]] = []

    def fake(samples, panels_of, *args, **kwargs):  # type: ignore[no-untyped-def]
        seen.extend([p.name for p in panels_of(s)] for s in samples)
        return []

    monkeypatch.setattr(render, "export_samples", fake)
    argv = ["export", "--gt", str(d.gt), "--images", str(d.images), "--metric", "tiou"]
    argv += ["--det", str(tmp_path / "run1" / "det"), "--det", str(tmp_path / "run2" / "det")]
    assert main([*argv, "--samples", "img_4", "--out", str(tmp_path / "out")]) == 0
    assert seen == [["det", "det'"]]


def test_detector_names_add_a_prime_to_a_name_taken() -> None:
    from metrics.cli.coverage import detector_names

    assert detector_names(["a/det.zip", "b/det.zip", "c/det.zip"]) == ["det", "det'", "det''"]
    assert detector_names(["x/pixellink.zip", "y/east"]) == ["pixellink", "east"]


@pytest.mark.parametrize(
    "argv",
    [
        ["export", "--metric", "tiou", "--worst", "-3", "--out", "OUT"],
        ["export", "--metric", "tiou", "--worst", "0", "--out", "OUT"],
        ["compare", "--top", "-1"],
        ["compare", "--top", "x"],
    ],
)
def test_a_count_below_one_is_an_option_mistake(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--worst -3`` wrote 497 images (a negative slice), ``--top -1`` listed none."""
    argv = [str(tmp_path / "out") if a == "OUT" else a for a in argv]
    with pytest.raises(SystemExit) as exc:
        main(argv)
    err = capsys.readouterr().err.strip()
    assert exc.value.code == 2 and len(err.splitlines()) == 1 and "argument --" in err, err
    assert not (tmp_path / "out").exists()


def test_a_skipped_image_says_why_and_the_index_names_its_columns(qtbot, tmp_path: Path) -> None:
    """TedEval skips the demo's img_8 (a curved GT polygon): its panel header gives the
    first reason with file and line, the dotted outlines are in the legend, and the index
    heads its score columns recall / precision / H-mean (no bare 'scores' over 4 cells)."""
    from metrics.core.model import Problem, Severity
    from viewer.export.render import Panel, _legend_columns, _skip_reason

    out = tmp_path / "out"
    argv = ["export", "--metric", "tedeval", "--samples", "img_8,img_4", "--out", str(out)]
    assert main(argv) == 0
    page = (out / "index.html").read_text()
    assert "<th>recall</th><th>precision</th><th>H-mean</th>" in page and "colspan" not in page
    why = Problem(Severity.ERROR, "/x/gt/gt_img_8.txt", 1, "TedEval reads QUAD", "img_8")
    warn = Problem(Severity.WARNING, "/x/gt/gt_img_8.txt", 2, "odd", "img_8")
    assert _skip_reason([warn, why], Panel("det", "tedeval", None, None, None)) == (
        "gt_img_8.txt:1: TedEval reads QUAD"
    )
    assert _legend_columns(480) == 1 and _legend_columns(1024) == 3 and _legend_columns(5000) == 4
