"""The report's content: plots (the panel's drawing code, offscreen), worst-image exports,
``report.json`` and ``index.html`` (self-contained: local images only, no script)."""

from __future__ import annotations

import dataclasses
import html
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from metrics.floats import check_mode, float_note
from metrics.io.atomic import atomic_write
from metrics.io.outnames import unique_names
from metrics.model import Dataset
from metrics.partial import coverage
from metrics.results import Evaluation
from viewer.analysis import plots
from viewer.analysis.data import AnalysisData, compute
from viewer.export.render import Panel, png_bytes, render_sample
from viewer.scene.layers import DEFAULT_LAYERS

THUMB_W = 360
PLOT_SIZE = (900, 480)


@dataclass(frozen=True)
class Job:
    metric: str
    params: Any
    evals: list[Evaluation]


def _plots(data: AnalysisData, folder: Path, stem: str) -> list[tuple[str, str]]:
    """Every plot of the panel for this metric: (title, png file name)."""
    out = []
    figures: list[tuple[str, Callable[[Any], object]]] = [
        ("sweep", lambda w: plots.draw_sweep(w, data, None)),
        ("pr", lambda w: plots.draw_pr(w, data, None)),
        ("attribution", lambda w: plots.draw_attribution(plots.BarPlot(w), data)),
        ("histogram", lambda w: plots.draw_histogram(w, data)),
    ]
    for attr in data.buckets:

        def draw_bucket(w: Any, a: str = attr) -> None:
            plots.draw_buckets(plots.BarPlot(w), a, data.buckets[a])

        figures.append((f"buckets_{attr}", draw_bucket))
    if data.pairs:
        figures.append(("scatter", lambda w: plots.draw_scatter(w, data)))
    for name, draw in figures:
        if data.sweep is None and name in ("sweep", "pr"):
            continue
        w = plots.new_plot(plots.TITLES.get(name.split("_")[0], name))
        w.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen)
        w.resize(*PLOT_SIZE)
        w.show()
        draw(w)
        QApplication.processEvents()  # lay the axes out before exporting
        png, _ = plots.export(w, folder / f"{stem}_{name}", PLOT_SIZE[0])
        w.close()
        out.append((name, png.name))
    return out


def _worst(
    ds: Dataset, job: Job, names: list[str], datasets: list[Dataset], n: int, folder: Path
) -> list[dict[str, Any]]:
    ev = job.evals[0]
    ranked = sorted(ev.results.items(), key=lambda kv: (kv[1].hmean, kv[0]))[:n]
    files = unique_names([sid for sid, _ in ranked], f"{job.metric}_{{}}")  # inside folder
    items = []
    for sid, r in ranked:
        panels = [
            Panel(nm, job.metric, e.results.get(sid), d[sid])
            for nm, e, d in zip(names, job.evals, datasets, strict=True)
        ]
        img = render_sample(ds[sid], panels, DEFAULT_LAYERS, ds.problems)
        full = folder / f"{files[sid]}.png"
        thumb = folder / f"{files[sid]}_thumb.png"
        atomic_write(full, png_bytes(img))
        small = img.scaledToWidth(THUMB_W, Qt.TransformationMode.SmoothTransformation)
        atomic_write(thumb, png_bytes(small))
        items.append({"sample": sid, "hmean": r.hmean, "full": full.name, "thumb": thumb.name})
    return items


def _json(job: Job, data: AnalysisData, worst: list[dict[str, Any]]) -> dict[str, Any]:
    sw = data.sweep
    a = data.attribution
    return {
        "metric": job.metric,
        "params": dataclasses.asdict(job.params),
        "sides": [
            {
                "recall": e.recall,
                "precision": e.precision,
                "hmean": e.hmean,
                "coverage": coverage(e).as_dict(),  # the images the figures cover
            }
            for e in job.evals
        ],
        "sweep": None
        if sw is None
        else {
            "method": sw.method,
            "best_threshold": sw.best_threshold,
            "best_chosen_on": "the evaluated set itself",
            "points": [
                {
                    "threshold": float(t),
                    "recall": float(s[0]),
                    "precision": float(s[1]),
                    "hmean": float(s[2]),
                    "kept": int(k),
                }
                for t, s, k in zip(sw.thresholds, sw.scores(), sw.kept, strict=True)
            ],
        },
        "attribution": {
            "hmean": a.hmean,
            "note": a.note,
            "ceiling": a.ceiling,
            "ceiling_note": a.ceiling_note(),
            "classes": [dataclasses.asdict(c) for c in a.classes],
            "per_image": a.per_image,
        },
        "buckets": {
            k: [dataclasses.asdict(b) | {"gts": None} for b in v] for k, v in data.buckets.items()
        },
        "per_image_hmean": dict(data.hmeans),
        "note": data.note,
        "bootstrap": None if data.bootstrap is None else dataclasses.asdict(data.bootstrap),
        "worst": worst,
    }


def _e(x: object) -> str:
    return html.escape(str(x))


def _table(head: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    th = "".join(f"<th>{_e(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><tr>{th}</tr>{body}</table>"


def _notes(d: dict[str, Any], names: list[str]) -> list[str]:
    out = []
    sw = d["sweep"]
    if sw:
        best = max(sw["points"], key=lambda p: p["hmean"])
        out.append(
            f"<p>Best score threshold of {_e(names[0])}: {sw['best_threshold']:.4g} "
            f"(H-mean {best['hmean']:.4f}), <b>chosen on the evaluated set itself</b>: an "
            "optimistic figure, not a held-out score.</p>"
        )
    b = d["bootstrap"]
    if b:
        out.append(
            f"<p>Is B ({_e(names[-1])}) really better than A ({_e(names[0])})? ΔH "
            f"{b['delta']:+.4f}, 95 % interval [{b['low']:+.4f}, {b['high']:+.4f}] over "
            f"{b['resamples']} paired bootstrap resamples of {b['images']} images; B ≤ A in "
            f"{100 * b['share_not_better']:.1f} % of them. Images where B is better "
            f"{b['better']}, worse {b['worse']}, equal {b['equal']}.</p>"
        )
    return out


def bucket_rows(buckets: Sequence[dict[str, Any]]) -> list[tuple[object, ...]]:
    """Rows of a bucket table; a bucket with no GT (no detection) has no recall (no
    precision): "–", not a 0.0000 that reads as a measured failure."""
    return [
        (
            b["label"],
            b["n_gt"],
            f"{b['recall']:.4f}" if b["n_gt"] else "–",
            b["n_det"],
            f"{b['precision']:.4f}" if b["n_det"] else "–",
        )
        for b in buckets
    ]


def side_row(name: str, side: dict[str, Any]) -> tuple[object, ...]:
    """A side's row: its figures and the images they cover; "–" for a side that read fewer
    than half of the images (no score of the set)."""
    cov = side["coverage"]
    images = f"{cov['images']} of {cov['of']}"
    if not cov["score"]:
        return (name, "–", "–", "–", images)
    return (name, *(f"{side[k]:.4f}" for k in ("recall", "precision", "hmean")), images)


def float_notes(datasets: Sequence[Dataset], names: list[str], floats: str) -> list[str]:
    """The header's sentence on each detection set's non-integer coordinates (``--floats``)."""
    out = []
    for name, ds in zip(names, datasets, strict=False):
        f = ds.facts
        note = float_note(f.n_gt_float, f.n_det_float, f.n_det, check_mode(floats))
        if note:
            out.append(f"<p class=warn>{_e(name)}: {_e(note)}</p>")
    return out


def coverage_notes(docs: Sequence[dict[str, Any]], names: list[str]) -> list[str]:
    """The report's header: each metric and side scored on part of the set, on how many
    images, and why there is no score where fewer than half were read."""
    out = []
    for d in docs:
        for name, side in zip(names, d["sides"], strict=True):
            cov = side["coverage"]
            if not cov["skipped"]:
                continue
            what = f"{d['metric']} on {name}: on {cov['images']} of {cov['of']} images"
            why = cov.get("why_no_score") or f"{cov['skipped']} skipped (input errors)"
            out.append(f"<p class=warn>{_e(what)}; {_e(why)}</p>")
    return out


def _section(d: dict[str, Any], figs: list[tuple[str, str]], names: list[str]) -> str:
    rows = [side_row(n, s) for n, s in zip(names, d["sides"], strict=True)]
    parts = [f"<h2>{_e(d['metric'])}</h2>"]
    parts.append(_table(("detections", "recall", "precision", "H-mean", "images"), rows))
    parts += _notes(d, names)
    parts.append("<div class=row>")
    for name, png in figs:
        svg = png.removesuffix(".png") + ".svg"
        parts.append(
            f"<figure><img src='{_e(png)}' alt='{_e(name)}'><figcaption>{_e(name)} "
            f"(<a href='{_e(png)}'>PNG</a>, <a href='{_e(svg)}'>SVG</a>)</figcaption></figure>"
        )
    parts.append("</div><div class=row>")
    cls = d["attribution"]["classes"]
    for note in (
        d["note"],
        d["attribution"]["note"] and f"no attribution: {d['attribution']['note']}",
    ):
        if note:
            parts.append(f"<p>{_e(note)}</p>")
    if cls:
        rows = [(c["name"], c["errors"], f"{c['hmean']:.4f}", f"{c['gain']:+.4f}") for c in cls]
        head = ("class", "errors", "H fixed", "gain")
        parts.append(f"<div><h3>Where the H-mean goes ({_e(names[0])})</h3>")
        parts.append(_table(head, rows))
        if d["attribution"]["ceiling_note"]:
            parts.append(f"<p>{_e(d['attribution']['ceiling_note'])}</p>")
        parts.append("</div>")
    for attr, bs in d["buckets"].items():
        rows = bucket_rows(bs)
        parts.append(f"<div><h3>Recall by {_e(attr)}</h3>")
        parts.append(_table(("bucket", "GT", "recall", "dets", "precision"), rows) + "</div>")
    parts.append(f"</div><h3>Worst images of {_e(names[0])} (click for full size)</h3>")
    parts.append("<div class=row>")
    for w in d["worst"]:
        parts.append(
            f"<figure><a href='{_e(w['full'])}'><img src='{_e(w['thumb'])}' "
            f"alt='{_e(w['sample'])}'></a><figcaption>{_e(w['sample'])}: H-mean "
            f"{w['hmean']:.3f}</figcaption></figure>"
        )
    parts.append("</div>")
    return "\n".join(parts)


STYLE = (
    "body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin:.5em 0}"
    "td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}"
    ".row{display:flex;flex-wrap:wrap;gap:1.5em;align-items:flex-start}figure{margin:0}"
    ".row img{width:480px;border:1px solid #ddd}h3{font-size:1em}.warn{color:#b45309}"
)


def write_report(
    folder: Path,
    datasets: Sequence[Dataset],
    names: list[str],
    jobs: Sequence[Job],
    worst: int,
    progress: Callable[[int, int], None],
    *,
    floats: str = "as-given",
) -> None:
    """Everything into ``folder`` (a fresh temporary folder); ``floats``: ``--floats``, for
    the header's sentence on non-integer coordinates."""
    docs, sections = [], []
    total = len(jobs) * 3
    for k, job in enumerate(jobs):
        other = job.evals[1] if len(job.evals) > 1 else None
        pair = (names[0], names[-1])
        data = compute(datasets[0], job.evals[0], job.params, other, pair)
        progress(3 * k + 1, total)
        figs = _plots(data, folder, job.metric)
        progress(3 * k + 2, total)
        items = _worst(datasets[0], job, names, list(datasets), worst, folder)
        progress(3 * k + 3, total)
        d = _json(job, data, items)
        docs.append(d)
        sections.append(_section(d, figs, names))
    title = " vs ".join(names)
    atomic_write(
        folder / "report.json",
        json.dumps({"detections": names, "metrics": docs}, indent=1, default=float) + "\n",
    )
    page = (
        f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>detlens report: "
        f"{_e(title)}</title><style>{STYLE}</style></head><body><h1>detlens report: "
        f"{_e(title)}</h1>{''.join(float_notes(datasets, names, floats))}"
        f"{''.join(coverage_notes(docs, names))}{''.join(sections)}"
        "</body></html>\n"
    )
    atomic_write(folder / "index.html", page)
