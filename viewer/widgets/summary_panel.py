"""The dataset summary panel: the set, the shown metric's scores (filtered, A and B), and
what the plan says about it."""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget

from metrics.analysis.compare import common_ids
from metrics.core.floats import check_mode, float_note
from metrics.core.model import Dataset
from metrics.core.partial import coverage
from metrics.core.protocols import Params
from metrics.core.results import Evaluation
from viewer.app.session import Session

__all__ = ["SummaryPanel"]


class SummaryPanel(QLabel):
    """Global R/P/H of the selected metric, and of the samples the table shows."""

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setWordWrap(True)
        self.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.setMargin(6)
        for signal in (
            session.results_changed,
            session.metric_changed,
            session.visible_changed,
            session.dataset_changed,
            session.comparison_changed,
            session.loading_changed,
        ):
            signal.connect(lambda *_: self.refresh())
        self.refresh()

    def refresh(self) -> None:
        s = self.session
        ev = s.evaluation()
        if s.loading and s.pending_rows:  # the table lists a set being read
            self.setText(f"Reading {len(s.pending_rows)} images… (counts and scores follow)")
            return
        if s.dataset is None:
            self.setText("No dataset: File › Open.")
            return
        head = _head(s, s.dataset)
        if ev is None or ev.summary is None:
            state = _state(s, ev is None)
            self.setText("<br>".join([head, f"{s.metric}: {state}", *_plan_lines(s)]))
            return
        lines = [head]
        ev_b = s.b.evaluation() if s.b is not None else None
        name_a, name_b = s.names()
        sides = [("A: " + name_a if ev_b is not None else ev.metric, ev)]
        if ev_b is not None:
            sides.append(("B: " + name_b, ev_b))
            same = ev_b.metric == ev.metric
            lines.append(
                f"metric: {ev.metric}" if same else f"metrics: {ev.metric} | {ev_b.metric}"
            )
        for name, e in sides:
            lines.append(_scores(name, e, None))
            ids = [i for i in s.visible_ids if i in e.results]
            if ids and len(ids) < len(e.results):
                lines.append(_scores(f"&nbsp;&nbsp;filtered ({len(ids)})", e, ids))
        if ev_b is not None:
            both = common_ids(ev, ev_b)  # B − A on the images both evaluated, never more
            lines.append(_delta(_both_label(ev, ev_b, both), ev, ev_b, both))
            ids = [i for i in s.visible_ids if i in ev.results and i in ev_b.results]
            if ids and len(ids) < len(both):
                lines.append(_delta(f"&nbsp;&nbsp;filtered ({len(ids)})", ev, ev_b, ids))
        lines.extend(_plan_lines(s))
        self.setText("<br>".join(lines))


def _head(s: Session, ds: Dataset) -> str:
    """The set's title and size; on a large set, that metrics are evaluated when chosen;
    the score threshold when one is set."""
    head = f"<b>{s.paths.title if s.paths else ''}</b> — {len(ds)} images"
    if s.a is not None and s.a.lazy:
        n = ds.facts.n_gt + ds.facts.n_det
        head += f"<br>{n:,} boxes: each metric is evaluated when you choose it"
    if s.score_threshold is not None:
        head += f"<br>detections with confidence ≥ {s.score_threshold:.4g} only (Analysis)"
    f = ds.facts
    mode = check_mode(s.paths.floats if s.paths else "as-given")
    note = float_note(f.n_gt_float, f.n_det_float, f.n_det, mode)
    if note:
        head += f"<br><span style='color:#b45309'>{html.escape(note)}</span>"
    return head


def _state(s: Session, missing: bool) -> str:
    """Why the shown metric has no scores: it failed (with the reason) or was cancelled
    (Apply re-runs it), it is running, or no image could be evaluated."""
    why = s.a.failure() if s.a is not None else None
    if why:
        what = "cancelled" if why == "cancelled" else f"failed: {html.escape(why)}"
        return f"<span style='color:#b91c1c'>not evaluated ({what})</span> — Apply re-runs it"
    if missing:
        return "evaluating…" if s.is_busy() else "not evaluated — Apply runs it"
    return html.escape((s.a.no_score() if s.a is not None else None) or "no image evaluated")


def _plan_lines(s: Session) -> list[str]:
    """What the plan says about the shown metric (images skipped, fallback values) and which
    metrics were left out, each with its reason; for a swept metric, which threshold the
    reported score was taken at and which one the canvas shows."""
    if s.a is None:
        return []
    warn = "<span style='color:#b45309'>{}</span>"
    ev = s.evaluation()
    out = [warn.format(html.escape(n)) for n in s.a.notes()]
    sweep = ev.sweep if ev is not None else None
    if ev is not None and sweep is not None and sweep.thresholds:
        best = sweep.thresholds[sweep.best_index]
        shown = sweep.thresholds[s.a.shown.get(ev.metric, sweep.best_index)]
        out.append(
            f"best of a {len(sweep.thresholds)}-threshold score sweep, at {best:.2f}: "
            f"chosen on the evaluated set (as MMOCR reports it); images shown at {shown:.2f}"
        )
    if ev is not None and ev.excluded and not any("skipped" in n for n in s.a.notes()):
        out.append(warn.format(f"{len(ev.excluded)} images skipped (input errors)"))
    for mid, reason in s.a.left_out().items():
        out.append(warn.format(html.escape(f"{mid} left out: {reason}")))
    return out


def _both_label(a: Evaluation[Params], b: Evaluation[Params], both: list[str]) -> str:
    """ "B − A", and on which images when either side skipped some."""
    if not (a.excluded or b.excluded or len(both) < max(len(a.results), len(b.results))):
        return "B − A"
    return f"B − A (on the {len(both)} images both evaluated)"


def _delta(name: str, a: Any, b: Any, ids: list[str] | None) -> str:
    if ids is not None and not ids:
        return f"<b>{name}</b>: no image evaluated by both"
    sa, sb = (a.subset(ids), b.subset(ids)) if ids is not None else (a, b)
    return (
        f"<b>{name}</b>: R {sb.recall - sa.recall:+.4f} · P "
        f"{sb.precision - sa.precision:+.4f} · H {sb.hmean - sa.hmean:+.4f}"
    )


def _scores(name: str, ev: Any, ids: list[str] | None) -> str:
    """A side's R / P / H (of the images ``ids``); the set's says on how many images it was
    scored when the metric skipped some, and is "–" with the reason when it read fewer than
    half of them (``metrics.core.partial``)."""
    if ids is not None:
        sc = ev.subset(ids)
        return f"<b>{name}</b>: R {sc.recall:.4f} · P {sc.precision:.4f} · H {sc.hmean:.4f}"
    cov = coverage(ev)
    if not cov.scored:
        why = html.escape(f"{cov.label()}: {cov.reason()}")
        return f"<b>{name}</b>: R – · P – · H – <span style='color:#b91c1c'>{why}</span>"
    text = f"<b>{name}</b>: R {ev.recall:.4f} · P {ev.precision:.4f} · H {ev.hmean:.4f}"
    return text + (f" ({cov.label()})" if cov.partial else "")
