"""A set the CLI refuses (--gt and --det swapped) is refused in the window, with the CLI's
message above the canvas, before any score; the next set opened clears it."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QImage

from metrics.cli.main import main
from tests.support import demo_dataset_paths, wait_evaluated
from viewer.app.main_window import MainWindow
from viewer.app.paths import DatasetPaths

GT = ["10,10,110,10,110,40,10,40,hello", "200,100,320,100,320,140,200,140,world"]
DET = ["12,10,110,10,110,42,12,42", "200,100,300,100,300,140,200,140"]


def _swapped(tmp_path: Path) -> DatasetPaths:
    """Detections given as the GT (res_*) and the GT as detections (gt_*)."""
    res, gt = tmp_path / "res", tmp_path / "gt"
    res.mkdir()
    gt.mkdir()
    for k in (1, 2):
        (res / f"res_img_{k}.txt").write_text("\n".join(DET) + "\n")
        (gt / f"gt_img_{k}.txt").write_text("\n".join(GT) + "\n")
    return DatasetPaths(str(res), str(gt))


def test_swapped_sets_are_refused_in_the_window(qtbot, tmp_path: Path) -> None:
    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    assert not w.open_paths(_swapped(tmp_path))
    assert w.refusal.isVisible() and w.refusal.message is not None
    assert "--gt and --det look swapped: the GT files are named res_*.txt" in w.refusal.text()
    assert w.session.dataset is None and w.session.evaluation() is None  # no score shown
    assert w.open_paths(demo_dataset_paths("b"))
    wait_evaluated(qtbot, w.session)
    assert not w.refusal.isVisible() and w.refusal.message is None
    w.session.cancel()


def test_swapped_sets_opened_over_a_set_keep_it_and_say_why(window, tmp_path: Path) -> None:
    shown = window.session.dataset
    assert not window.open_paths(_swapped(tmp_path))
    assert window.session.dataset is shown and window.refusal.isVisible()
    assert window.last_error == window.refusal.message


def test_view_command_refuses_with_the_cli_message(tmp_path: Path, capsys) -> None:
    p = _swapped(tmp_path)
    out = tmp_path / "shot.png"
    argv = ["view", "--gt", p.gt, "--det", str(p.det), "--screenshot", str(out)]
    assert main([*argv, "--size", "1000x700"]) == 2
    err = capsys.readouterr().err
    assert "--gt and --det look swapped" in err
    assert main(["eval", "--gt", p.gt, "--det", str(p.det)]) == 2
    said = capsys.readouterr().err
    assert said.split("first: ", 1)[1].splitlines()[0] in err  # the CLI's message
    shot = QImage(str(out))
    assert shot.width() == 1000 and not shot.isNull()
