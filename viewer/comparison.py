"""The B side of a comparison: a second detector on the same GT, or a second metric on the
same detector. Owned by the Session (``session.b``); widgets reach it through the session."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from metrics.compare import SampleDiff, sample_diff
from metrics.io.reader import load_dataset
from metrics.model import Dataset, InputError, Sample
from metrics.registry import METRICS
from metrics.results import Evaluation, SampleResult
from viewer.workers import ResultStore

if TYPE_CHECKING:
    from viewer.session import Session


def detector_name(path: str | None) -> str:
    return Path(path).name.removesuffix(".zip") if path else "no detections"


class CompareRun:
    """Detector B's dataset and evaluations, or the second metric of a metric comparison."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.mode: str | None = None  # "detectors", "metrics" or None
        self.det: str | None = None
        self.dataset: Dataset | None = None
        self.store = ResultStore(
            session.results_changed.emit,
            session.error_raised.emit,
            lambda: session.busy_changed.emit(session.is_busy()),
        )
        self.metric_b: str | None = None
        self.names = ["A", "B"]

    @property
    def evaluations(self) -> dict[str, Evaluation]:
        return self.store.evaluations

    # ------------------------------------------------------------------ opening
    def open_detector(self, det: str) -> bool:
        s = self.session
        if s.paths is None:
            s.error_raised.emit("open a dataset first")
            return False
        try:
            ds = load_dataset(s.paths.gt, det, gt_lines=s.paths.gt_lines, images=s.paths.images)
        except InputError as exc:
            s.error_raised.emit(str(exc))
            return False
        self.close(emit=False)
        self.mode, self.det, self.dataset = "detectors", det, ds
        self.names = [detector_name(s.paths.det), detector_name(det)]
        if self.names[0] == self.names[1]:
            self.names[1] += " (B)"
        s.comparison_changed.emit()
        self.evaluate()
        return True

    def open_metric(self, metric_b: str) -> bool:
        s = self.session
        if metric_b not in s.metric_ids():
            s.error_raised.emit(f"{metric_b} does not apply to this dataset")
            return False
        self.close(emit=False)
        self.mode, self.metric_b = "metrics", metric_b
        self.names = [s.metric or "A", metric_b]
        s.comparison_changed.emit()
        return True

    def close(self, emit: bool = True) -> None:
        self.store.clear()
        self.mode, self.det, self.dataset, self.metric_b = None, None, None, None
        self.names = ["A", "B"]
        if emit:
            self.session.comparison_changed.emit()

    def rename(self, side: int, name: str) -> None:
        self.names[side] = name.strip() or self.names[side]
        self.session.comparison_changed.emit()

    # ------------------------------------------------------------------ evaluation
    def evaluate(self, metrics: list[str] | None = None) -> None:
        s = self.session
        if self.mode != "detectors" or self.dataset is None:
            return
        specs = [METRICS[m] for m in (metrics or s.metric_ids())]
        self.store.start(self.dataset, specs, s.overrides, s.sample_id)

    def cancel(self) -> None:
        self.store.cancel()

    def is_busy(self) -> bool:
        return self.store.is_busy()

    def wait(self, timeout_ms: int) -> bool:
        return self.store.wait(timeout_ms)

    # ------------------------------------------------------------------ reading
    def metric(self) -> str | None:
        return self.metric_b if self.mode == "metrics" else self.session.metric

    def evaluation(self) -> Evaluation | None:
        m = self.metric()
        if m is None or self.mode is None:
            return None
        source = self.session.evaluations if self.mode == "metrics" else self.evaluations
        return source.get(m)

    def result(self, sample_id: str | None = None) -> SampleResult | None:
        s, m = self.session, self.metric()
        sid = sample_id or s.sample_id
        if self.mode is None or m is None or sid is None:
            return None
        if self.mode == "metrics":
            return s.result(metric=m, sample_id=sid)
        return self.store.result(m, sid)

    def sample(self, sample_id: str | None = None) -> Sample | None:
        sid = sample_id or self.session.sample_id
        if self.mode == "detectors" and self.dataset is not None and sid is not None:
            return self.dataset[sid]
        return self.session.sample() if sid == self.session.sample_id else None

    def diff(self, sample_id: str | None = None) -> SampleDiff | None:
        sid = sample_id or self.session.sample_id
        if self.mode is None or sid is None:
            return None
        return sample_diff(sid, self.session.result(sample_id=sid), self.result(sid))
