"""Reading a set in runs for the viewer (``viewer.jobs.reading``): the dataset ``load_dataset``
gives (samples, and problems in the same order), the sample ids handed over before a box is
read, and the table listing them while the set is read."""

from __future__ import annotations

import pickle
import threading
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

import metrics.io.reader as reader
from metrics.io.reader import load_dataset
from tests.support import ht_files, ht_words_image, wait_evaluated, write_dir, write_zip
from viewer.app.main_window import MainWindow
from viewer.app.paths import DatasetPaths
from viewer.jobs import reading

GT = {
    "gt_img_1.txt": "0,0,40,0,40,20,0,20,abc\n0,0,10,10,10,0,0,10,bow\n",
    "gt_img_2.txt": "0,0,40,0,40,20,0,20,abc\nnot,a,box\n",
    "gt_img_3.txt": "5,5,5,5,5,5,5,5,zero\n",
    "gt_img_4.txt": "0,0,40,0,40,20,0,20,abc\n",
    "gt_img_10.txt": "0,0,40,0,40,20,0,20,abc\n",
}
DET = {
    "res_img_1.txt": "1,0,41,0,41,21,1,21\n",
    "res_img_2.txt": "1,0,41,0,41,21,1,21\n1,2,3\n",
    "res_img_3.txt": "0,0,10,10,10,0,0,10\n",
    "res_img_10.txt": "1,0,41,0,41,21,1,21\n",
    "res_img_99.txt": "1,0,41,0,41,21,1,21\n",  # no such GT
}


def _same(a: Any, b: Any) -> bool:
    return pickle.dumps(a) == pickle.dumps(b)


@pytest.mark.parametrize("run", [1, 2, 250])
@pytest.mark.parametrize("as_dir", [False, True])
def test_reading_in_runs_gives_the_dataset_load_dataset_gives(
    tmp_path: Path, monkeypatch, run: int, as_dir: bool
) -> None:
    """Bad lines, a bow-tie, a zero-area box, a GT without detections, a detection file
    without GT, natural order (img_10 after img_4): same samples, same problems in order."""
    write = write_dir if as_dir else write_zip
    gt = write(tmp_path / ("gt" if as_dir else "gt.zip"), GT)
    det = write(tmp_path / ("det" if as_dir else "det.zip"), DET)
    want = load_dataset(gt, det)
    assert len(want.problems) >= 4 and [s.id for s in want][-1] == "img_10"
    monkeypatch.setattr(reading, "RUN", run)
    ids: list[list[str]] = []
    got = reading.read_set(DatasetPaths(str(gt), str(det)), lambda x: ids.append(list(x)))
    assert _same(got, want)
    assert ids == [[s.id for s in want]]


def test_the_ids_come_before_any_box_is_read(tmp_path: Path, monkeypatch) -> None:
    calls: list[str] = []
    real = reader.read_pairs
    monkeypatch.setattr(reader, "read_pairs", lambda *a: calls.append("read") or real(*a))
    paths = DatasetPaths(
        str(write_zip(tmp_path / "gt.zip", GT)), str(write_zip(tmp_path / "det.zip", DET))
    )
    reading.read_set(paths, lambda ids: calls.append(f"paired {len(ids)}"))
    assert calls[0] == "paired 5" and calls[1:] == ["read"]


def test_other_formats_are_read_whole(tmp_path: Path) -> None:
    """HierText JSON: no pairing first (nothing is said before the end), same dataset."""
    gt, det = ht_files(
        tmp_path, [ht_words_image([(0, 0, 40, 20)])], [ht_words_image([(1, 0, 41, 21)])]
    )
    ids: list[Any] = []
    got = reading.read_set(DatasetPaths(str(gt), str(det)), ids.append)
    assert _same(got, load_dataset(gt, det)) and ids == []


def test_the_table_lists_the_ids_while_the_set_is_read(qtbot, tmp_path: Path, monkeypatch) -> None:
    """Rows come once the files are paired; their counts and scores show as pending
    ("…"), never as 0; choosing a row meanwhile does nothing; then the read set's rows."""
    release = threading.Event()
    real = reader.read_pairs

    def slow(*args: Any) -> Any:
        release.wait(30)
        return real(*args)

    monkeypatch.setattr(reader, "read_pairs", slow)
    paths = DatasetPaths(
        str(write_zip(tmp_path / "gt.zip", GT)), str(write_zip(tmp_path / "det.zip", DET))
    )
    w = MainWindow(restore_layout=False)
    qtbot.addWidget(w)
    w.show()
    model = w.samples.model
    seen: list[list[str]] = []

    def look() -> None:  # while the set is read (open_paths runs a local event loop)
        qtbot.waitUntil(lambda: model.rowCount() == 5, timeout=10_000)
        seen.extend(
            [model.data(model.index(r, c), Qt.ItemDataRole.DisplayRole) for c in range(1, 12)]
            for r in range(5)
        )
        assert w.session.loading and w.session.dataset is None
        assert w.summary.text().startswith("Reading 5 images")  # not "No dataset"
        w.samples.view.selectRow(2)  # no image to show yet: nothing happens
        release.set()

    from PySide6.QtCore import QTimer

    QTimer.singleShot(0, look)
    assert w.open_paths(paths)
    assert len(seen) == 5 and all(t == ["…"] * 11 for t in seen), seen
    wait_evaluated(qtbot, w.session)
    assert model.rowCount() == 5 and {r.n_gt for r in model.rows} == {1, 2}
