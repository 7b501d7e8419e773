"""The sample table while a set is read and evaluated (issue 11): rows before the results,
nothing unknown shown as a number, the evaluation not validating twice, the check of a large
set in a child process, the table's sort and filter on whole row lists."""

from __future__ import annotations

import itertools
import threading
from operator import attrgetter
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import Qt

from metrics.check import check_dataset
from metrics.io.reader import load_dataset
from tests.support import wait_evaluated, write_zip
from viewer.app.main_window import MainWindow
from viewer.app.paths import DatasetPaths
from viewer.scene.palette import StyleKey
from viewer.scene.row_lists import RowFilter, ordered_rows
from viewer.scene.rows import SampleRow, sorted_rows
from viewer.widgets.sample_table import COLUMNS


def _set(tmp_path: Path, images: int = 6) -> DatasetPaths:
    gt, det = {}, {}
    for k in range(images):
        gt[f"gt_img_{k}.txt"] = "0,0,40,0,40,20,0,20,abc\n60,0,99,0,99,20,60,20,de\n"
        det[f"res_img_{k}.txt"] = "1,0,41,0,41,21,1,21\n" if k % 2 else "200,0,240,0,240,9,200,9\n"
    return DatasetPaths(
        str(write_zip(tmp_path / "gt.zip", gt)), str(write_zip(tmp_path / "det.zip", det))
    )


def _texts(window: MainWindow, row: int) -> dict[str, str]:
    m = window.samples.model
    return {
        COLUMNS[c]: m.data(m.index(row, c), Qt.ItemDataRole.DisplayRole)
        for c in range(len(COLUMNS))
    }


def test_rows_come_before_the_results_and_nothing_unknown_looks_known(
    qtbot, tmp_path: Path, hold_whole_set: threading.Event
) -> None:
    """While the whole set is evaluated the table has a row per image; an image without its
    result shows its counts and "…" for scores and failure counts (never 0 or a score), and
    its boxes are drawn as not evaluated, not as matched."""
    release = hold_whole_set
    w = MainWindow(restore_layout=False)
    qtbot.addWidget(w)
    w.show()
    try:
        assert w.open_paths(_set(tmp_path))
        s, model = w.session, w.samples.model
        assert model.rowCount() == 6 and s.is_busy() and s.evaluation() is None
        qtbot.waitUntil(lambda: bool(s.partial), timeout=10_000)  # the current image's result
        first = s.sample_id
        for row, r in enumerate(model.shown):
            texts = _texts(w, row)
            assert texts["GT"] == "2" and texts["det"] == "1"
            if r.sample_id == first:
                assert texts["R"] not in ("…", "–")
                continue
            assert r.recall is r.missed is r.false_positives is None
            for name in ("R", "P", "H", "miss", "FP", "split", "merge", "part.", "multi"):
                assert texts[name] == "…", (name, texts)
        other = next(r.sample_id for r in model.shown if r.sample_id != first)
        s.set_sample(other)
        styles = {it.style for it in w.canvas.overlay.items if it.layer in ("gt", "det")}
        assert styles == {StyleKey.GT_NONE, StyleKey.DET_NONE}
    finally:
        release.set()
    wait_evaluated(qtbot, w.session)
    texts = [_texts(w, row) for row in range(model.rowCount())]
    assert all(t["R"] not in ("…", "–") for t in texts)
    assert {t["FP"] for t in texts} == {"", "1"}  # a count known to be 0 is left blank


def test_the_evaluation_does_not_validate_the_set_again(qtbot, tmp_path: Path, monkeypatch) -> None:
    """The plan made while reading validated every metric; the whole-set run reuses it
    (validation is array work over the whole set that holds the window meanwhile), until a
    parameter changes."""
    from PySide6.QtCore import QThread

    import metrics.run.runner as runner
    from viewer.jobs.workers import EvaluationWorker

    sizes: list[int] = []  # the datasets the evaluation workers validate
    real = runner._validate

    def counted(spec: Any, ds: Any, prm: Any) -> Any:
        if isinstance(QThread.currentThread(), EvaluationWorker):
            sizes.append(len(ds))
        return real(spec, ds, prm)

    monkeypatch.setattr(runner, "_validate", counted)
    w = MainWindow(restore_layout=False)
    qtbot.addWidget(w)
    assert w.open_paths(_set(tmp_path))
    wait_evaluated(qtbot, w.session)
    assert sizes and set(sizes) == {1}  # only the current image's quick run validates
    sizes.clear()
    w.session.set_params("tiou", {"tolerance": "0"})
    wait_evaluated(qtbot, w.session)
    assert 6 in sizes  # new parameters: validated again


def test_a_large_set_is_checked_by_a_child_process(qtbot, tmp_path: Path, monkeypatch) -> None:
    """Same findings as in this process (a bow-tie, a duplicate, a zero-area box, a
    counter-clockwise quad), and the child is gone afterwards."""
    from viewer.jobs import check_process

    gt = {
        "gt_img_1.txt": "0,0,10,10,10,0,0,10,bow\n0,0,9,0,9,9,0,9,a\n0,0,9,0,9,9,0,9,a\n"
        "0,0,0,9,9,9,9,0,ccw\n",
        "gt_img_2.txt": "5,5,5,5,5,5,5,5,z\n0,0,9,0,9,9,0,9,b\n",
    }
    paths = DatasetPaths(str(write_zip(tmp_path / "gt.zip", gt)))
    want = check_dataset(load_dataset(paths.gt))
    assert want
    started: list[check_process.Companion] = []
    real = check_process.Companion.__init__

    def spy(self: Any, *args: Any) -> None:
        real(self, *args)
        started.append(self)

    monkeypatch.setattr(check_process, "LARGE_BYTES", 0)
    monkeypatch.setattr(check_process.Companion, "__init__", spy)
    w = MainWindow(restore_layout=False)
    qtbot.addWidget(w)
    assert w.open_paths(paths)
    assert len(started) == 1 and started[0].paths == paths
    assert w.session.checks.wait(60_000)
    qtbot.waitUntil(lambda: not w.session.checks.running, timeout=10_000)
    assert w.session.checks.findings == want and not w.session.checks.error
    assert started[0].proc.poll() is not None and check_process.take(paths) is None
    wait_evaluated(qtbot, w.session)


def test_the_plan_made_in_runs_is_plan_all(tmp_path: Path, monkeypatch) -> None:
    """Validated 2 samples at a time: the same metrics, skipped images, notes and problems
    (a counter-clockwise quad some metrics refuse, a curved polygon TedEval skips)."""
    from metrics.catalogue.registry import applicable
    from metrics.run.runner import plan_all
    from viewer.jobs import planning

    gt = {f"gt_img_{k}.txt": "0,0,9,0,9,9,0,9,a\n" for k in range(5)}
    gt["gt_img_1.txt"] += "0,0,0,9,9,9,9,0,ccw\n"
    gt["gt_img_3.txt"] += "0,0,5,0,9,0,9,9,5,9,0,9,poly\n"
    ds = load_dataset(write_zip(tmp_path / "gt.zip", gt))
    want = plan_all(ds, applicable(ds))
    assert want.lenient and want.validated
    monkeypatch.setattr(planning, "RUN", 2)
    got = planning.plan_in_runs(ds)
    assert got == want
    assert all(a is b for a, b in zip(got.specs, want.specs, strict=True))  # the registry's


def test_a_child_process_that_fails_leaves_the_work_to_this_one(
    qtbot, tmp_path: Path, monkeypatch
) -> None:
    """The child cannot plan (here: it is killed at once): the plan and the check are made in
    this process, with the same results."""
    from viewer.jobs import check_process

    paths = _set(tmp_path)
    real = check_process.Companion.__init__

    def killed(self: Any, *args: Any) -> None:
        real(self, *args)
        self.proc.kill()

    monkeypatch.setattr(check_process, "LARGE_BYTES", 0)
    monkeypatch.setattr(check_process.Companion, "__init__", killed)
    w = MainWindow(restore_layout=False)
    qtbot.addWidget(w)
    assert w.open_paths(paths)
    assert w.session.a is not None and "tiou" in w.session.metric_ids()
    assert w.session.checks.wait(60_000)
    qtbot.waitUntil(lambda: not w.session.checks.running, timeout=10_000)
    assert not w.session.checks.error
    assert w.session.checks.findings == check_dataset(load_dataset(paths.gt, paths.det))
    wait_evaluated(qtbot, w.session)


_ROWS = st.lists(
    st.builds(
        SampleRow,
        sample_id=st.text("ab1", min_size=1, max_size=3),
        n_gt=st.none() | st.integers(0, 5),
        n_det=st.none() | st.integers(0, 5),
        recall=st.none() | st.sampled_from([0.0, 0.5, 1.0]),
        precision=st.none() | st.floats(0, 1),
        hmean=st.none() | st.sampled_from([0.0, 0.25, 1.0]),
        missed=st.none() | st.integers(0, 3),
    ),
    max_size=30,
)


@settings(max_examples=60, deadline=None)
@given(_ROWS, st.sampled_from(["n_gt", "recall", "hmean", "missed", "sample_id"]), st.booleans())
def test_sorting_whole_lists_keeps_the_stable_order(
    rows: list[SampleRow], field: str, descending: bool
) -> None:
    """As Python's stable sort, the not evaluated (None) after the others either way."""
    known = [r for r in rows if getattr(r, field) is not None]
    want = sorted(known, key=attrgetter(field), reverse=descending)
    want += [r for r in rows if getattr(r, field) is None]
    assert [id(r) for r in sorted_rows(rows, field, descending=descending)] == [id(r) for r in want]


def test_filter_on_whole_lists() -> None:
    rows = [
        SampleRow("img_1", 2, 1, 0.5, 1.0, 0.6, missed=1, false_positives=0),
        SampleRow("img_10", 2, 2, 1.0, 0.5, 0.6, missed=0, false_positives=1),
        SampleRow("img_2", 2, None, None, None, None),
    ]
    f = RowFilter()
    assert f.apply(rows) is rows  # nothing on: no copy
    f.set_kind("missed", True)
    assert [r.sample_id for r in f.apply(rows)] == ["img_1"]  # unknown is not "has a miss"
    f.set_kind("missed", False)
    f.set_text("IMG_1")
    assert [r.sample_id for r in f.apply(rows)] == ["img_1", "img_10"]
    f.set_text("")
    f.set_focus(["img_2"])
    assert [r.sample_id for r in f.apply(rows)] == ["img_2"]


def test_ordered_rows_put_blank_rows_where_a_metric_has_no_result(tmp_path: Path) -> None:
    from metrics.catalogue.registry import METRICS
    from metrics.run.runner import run
    from viewer.jobs.workers import table_rows

    ds = load_dataset(_set(tmp_path, 3).gt, _set(tmp_path, 3).det)
    ev = run(ds, [METRICS["tiou"]])[0]
    made = table_rows(ds, [ev])["tiou"]
    dropped = next(iter(made))
    rows = ordered_rows(ds, ev, {k: v for k, v in made.items() if k != dropped})
    assert [r.sample_id for r in rows] == [s.id for s in ds]
    for r in rows:
        assert (r.hmean is None) is (r.sample_id == dropped)
        assert (r.n_gt, r.n_det) == (2, 1)
    assert np.isfinite([r.hmean for r in rows if r.hmean is not None]).all()


def test_showing_a_set_fills_the_table_once(qtbot, tmp_path: Path) -> None:
    """set_dataset emits several signals (dataset, comparison, the evaluation starting): the
    rows are made once (at 25,000 images each reset and fit held the window ~30 ms)."""
    from viewer.app.session import Session
    from viewer.widgets.sample_table import SampleTablePanel

    s = Session()
    panel = SampleTablePanel(s)
    qtbot.addWidget(panel)
    ds = load_dataset(_set(tmp_path).gt, _set(tmp_path).det)
    resets: list[int] = []
    panel.model.modelReset.connect(lambda: resets.append(panel.model.rowCount()))
    s.set_dataset(ds)
    assert resets == [6]
    wait_evaluated(qtbot, s)
    assert resets[-1] == 6 and all(r.hmean is not None for r in panel.model.rows)
    before = len(resets)
    s.results_changed.emit()  # nothing new: no reset
    assert len(resets) == before


def test_the_shown_metric_comes_in_before_the_others(qtbot, tmp_path: Path, monkeypatch) -> None:
    """The whole set is evaluated in two passes: the metric shown, then every other one, so
    its scores are in the table while the others are still being evaluated (on a
    25,000-image set, minutes earlier); the progress bar runs once over both."""
    import viewer.jobs.workers as workers

    release = threading.Event()
    real_run = workers.run
    passes: list[list[str]] = []

    def held_run(ds: Any, specs: Any, *args: Any, **kwargs: Any) -> Any:
        if len(ds) > 1:
            passes.append([s.id for s in specs])
            if len(passes) > 1:  # the other metrics wait
                taken.append(set(w.session.evaluations))  # what the UI thread had taken in
                release.wait(30)
        return real_run(ds, specs, *args, **kwargs)

    taken: list[set[str]] = []
    monkeypatch.setattr(workers, "run", held_run)
    w = MainWindow(restore_layout=False)
    qtbot.addWidget(w)
    values: list[tuple[int, int]] = []
    w.session.progress_changed.connect(lambda d, t: values.append((d, t)))
    try:
        assert w.open_paths(_set(tmp_path))
        s = w.session
        shown = s.metric
        qtbot.waitUntil(lambda: shown in s.evaluations, timeout=10_000)
        assert s.is_busy() and set(s.evaluations) == {shown}
        assert all(_texts(w, row)["R"] not in ("…", "–") for row in range(6))
        assert "evaluating" in w.busy.format() and "%" in w.busy.format()
    finally:
        release.set()
    wait_evaluated(qtbot, w.session)
    assert passes[0] == [shown] and shown not in passes[1] and len(passes) == 2
    assert taken == [{shown}]  # the next pass began once the window had the first one
    assert set(s.evaluations) == {shown, *passes[1]}
    done, total = values[-1]
    assert done == total and all(a <= b for (a, _), (b, _) in itertools.pairwise(values))


def test_a_large_set_evaluates_a_metric_when_it_is_shown(
    qtbot, tmp_path: Path, monkeypatch
) -> None:
    """Above ``LAZY_INSTANCES`` boxes only the shown metric is evaluated as the set opens;
    choosing another evaluates it then (and one cancelled by choosing again); the summary
    says so. A metric comparison evaluates its second metric."""
    import viewer.app.side as side

    monkeypatch.setattr(side, "LAZY_INSTANCES", 10)  # 6 images of 2 GT + 1 detection: 18
    w = MainWindow(restore_layout=False)
    qtbot.addWidget(w)
    assert w.open_paths(_set(tmp_path))
    s = w.session
    wait_evaluated(qtbot, s)
    assert s.a is not None and s.a.lazy
    first = s.metric
    assert set(s.evaluations) == {first}
    assert "each metric is evaluated when you choose it" in w.summary.text()
    other = next(m for m in s.metric_ids() if m != first)
    s.set_metric(other)
    assert s.is_busy() and other in s.a.store.running()
    wait_evaluated(qtbot, s)
    assert set(s.evaluations) == {first, other}
    assert all(_texts(w, row)["R"] not in ("…", "–") for row in range(6))
    third, fourth = [m for m in s.metric_ids() if m not in (first, other)][:2]
    s.set_metric(third)
    s.set_metric(fourth)  # the third is cancelled: shown again, it runs again
    s.set_metric(third)
    wait_evaluated(qtbot, s)
    assert third in s.evaluations  # shown again after it was cancelled: evaluated
    fifth = next((m for m in s.metric_ids() if m not in s.evaluations), None)
    if fifth is not None:
        assert s.compare_metrics(fifth)
        wait_evaluated(qtbot, s)
        assert fifth in s.evaluations


def test_a_small_set_evaluates_every_metric_as_it_opens(qtbot, tmp_path: Path) -> None:
    w = MainWindow(restore_layout=False)
    qtbot.addWidget(w)
    assert w.open_paths(_set(tmp_path))
    wait_evaluated(qtbot, w.session)
    assert w.session.a is not None and not w.session.a.lazy
    assert set(w.session.evaluations) == set(w.session.metric_ids())
    assert "when you choose it" not in w.summary.text()


def test_choosing_a_metric_of_a_large_set_keeps_the_columns(
    qtbot, tmp_path: Path, monkeypatch
) -> None:
    """While the chosen metric of a large set runs, the table keeps its columns and widths
    (fitted to scores, not to the "…" of rows not evaluated yet)."""
    import viewer.app.side as side

    monkeypatch.setattr(side, "LAZY_INSTANCES", 10)
    w = MainWindow(restore_layout=False)
    qtbot.addWidget(w)
    w.resize(1600, 900)
    w.show()
    assert w.open_paths(_set(tmp_path))
    s = w.session
    wait_evaluated(qtbot, s)
    view = w.samples.view
    hidden = [view.isColumnHidden(c) for c in range(len(COLUMNS))]
    widths = [view.columnWidth(c) for c in range(len(COLUMNS))]
    other = next(m for m in s.metric_ids() if m != s.metric and m.startswith(("siou", "tiou")))
    s.set_metric(other)
    assert s.is_busy()
    assert [view.isColumnHidden(c) for c in range(len(COLUMNS))] == hidden
    assert [view.columnWidth(c) for c in range(len(COLUMNS))] == widths
    wait_evaluated(qtbot, s)
