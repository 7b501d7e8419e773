"""The report's content: plots (the panel's drawing code, offscreen), worst-image exports,
``report.json`` and ``index.html`` (self-contained: local images only, no script)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from metrics.analysis import serialize
from metrics.core.model import Dataset
from metrics.core.partial import coverage
from metrics.core.protocols import Params
from metrics.core.results import Evaluation
from metrics.io.atomic import atomic_write
from metrics.io.outnames import unique_names
from viewer.analysis import plots
from viewer.analysis.data import AnalysisData, compute
from viewer.analysis.header import coverage_notes, float_notes, headline, side_row
from viewer.analysis.tables import attribution_table, bucket_table, e, table
from viewer.export.render import Panel, png_bytes, render_sample
from viewer.scene.layers import DEFAULT_LAYERS

THUMB_W = 360
PLOT_SIZE = (1000, 460)  # shown at this size (CSS px): tick labels at plots.FONT_PX
PLOT_SCALE = 1  # exported at the size shown (pyqtgraph does not scale legends)
CAPTIONS = {
    "sweep": "Recall, precision and H-mean at each score threshold{both} (detections whose "
    "confidence is at least the threshold are kept); a dot marks each detector's best "
    "threshold, chosen on this very set",
    "pr": "Precision against recall as the score threshold rises{both}; a dot marks each "
    "detector's best threshold",
    "attribution": "How much H-mean each error class costs: the gain when an oracle fixes "
    'that class alone{both}; grey "n/a": a class this metric cannot have',
    "histogram": "How many images reach each H-mean{both}",
    "scatter": "Each image's H-mean under A (x) and B (y): above the diagonal B does better",
}


@dataclass(frozen=True)
class Job:
    metric: str
    params: Params
    evals: list[Evaluation[Params]]
    fallback: str = ""  # "evaluated with auto_orient=true: ..." (said under the heading)


def _figures(data: AnalysisData) -> list[tuple[str, Callable[[Any], object]]]:
    out: list[tuple[str, Callable[[Any], object]]] = []
    if data.sweep is not None:
        out.append(("sweep", lambda w: plots.draw_sweep(w, data, None, movable=False)))
        out.append(("pr", lambda w: plots.draw_pr(w, data, None, movable=False)))
    out.append(("attribution", lambda w: plots.draw_attribution(plots.BarPlot(w), data)))
    for attr in data.buckets:

        def draw_bucket(w: Any, a: str = attr) -> None:
            plots.draw_buckets(plots.BarPlot(w), a, data.buckets[a], data)

        out.append((f"buckets_{attr}", draw_bucket))
    out.append(("histogram", lambda w: plots.draw_histogram(w, data)))
    if data.pairs:
        out.append(("scatter", lambda w: plots.draw_scatter(w, data)))
    return out


def _plots(data: AnalysisData, folder: Path, stem: str) -> dict[str, str]:
    """Every plot of the panel for this metric: {name: png file name}."""
    out = {}
    for name, draw in _figures(data):
        w = plots.new_plot(plots.TITLES.get(name.split("_")[0], name))
        w.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen)
        w.resize(*PLOT_SIZE)
        w.show()
        draw(w)
        QApplication.processEvents()  # lay the axes out before exporting
        png, _ = plots.export(w, folder / f"{stem}_{name}", PLOT_SIZE[0] * PLOT_SCALE)
        w.close()
        out[name] = png.name
    return out


def _render(
    ds: Dataset,
    job: Job,
    names: list[str],
    datasets: list[Dataset],
    sid: str,
    folder: Path,
    stem: str,
) -> tuple[str, str]:
    """The image ``sid`` under every side, full size and thumbnail, as ``stem``.png and
    ``stem``_thumb.png in ``folder`` (``stem``: a safe file name, ``metrics.io.outnames``)."""
    full = folder / f"{stem}.png"
    thumb = folder / f"{stem}_thumb.png"
    if not full.exists():
        panels = [
            Panel(nm, job.metric, e.results.get(sid), d[sid], e.params)
            for nm, e, d in zip(names, job.evals, datasets, strict=True)
        ]
        img = render_sample(ds[sid], panels, DEFAULT_LAYERS, ds.problems)
        atomic_write(full, png_bytes(img))
        small = img.scaledToWidth(THUMB_W, Qt.TransformationMode.SmoothTransformation)
        atomic_write(thumb, png_bytes(small))
    return full.name, thumb.name


def _worst(
    ds: Dataset, job: Job, names: list[str], datasets: list[Dataset], n: int, folder: Path
) -> dict[str, list[dict[str, Any]]]:
    """The worst images by H-mean of each side and, when comparing, by ΔH (B's largest
    losses, then gains), each rendered with every side."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for k, ev in enumerate(job.evals):
        ranked = sorted(ev.results.items(), key=lambda kv: (kv[1].hmean, kv[0]))[:n]
        groups[f"by_hmean_{'ab'[k]}"] = [{"sample": sid, "hmean": r.hmean} for sid, r in ranked]
    if len(job.evals) == 2:
        rows = sorted(
            (
                (s, r.hmean, job.evals[1].results[s].hmean)
                for s, r in job.evals[0].results.items()
                if s in job.evals[1].results
            ),
            key=lambda x: (x[2] - x[1], x[0]),
        )
        losses = [x for x in rows[:n] if x[2] < x[1]]
        gains = [x for x in reversed(rows[-n:]) if x[2] > x[1] and x not in losses]
        groups["by_delta"] = [
            {"sample": s, "hmean_a": ha, "hmean_b": hb, "delta": hb - ha}
            for s, ha, hb in losses + gains
        ]
    sids = sorted({item["sample"] for items in groups.values() for item in items})
    files = unique_names(sids, f"{job.metric}_{{}}")  # inside folder, never an input's name
    for items in groups.values():
        for item in items:
            sid = item["sample"]
            item["full"], item["thumb"] = _render(ds, job, names, datasets, sid, folder, files[sid])
    return groups


def _json(job: Job, data: AnalysisData, worst: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    sides = []
    for ev, sd in zip(job.evals, data.sides, strict=False):
        sides.append(
            {
                "name": sd.name,
                "metric": sd.metric,
                "recall": ev.recall,
                "precision": ev.precision,
                "hmean": ev.hmean,
                "coverage": coverage(ev).as_dict(),  # the images the figures cover
                "sweep": None if sd.sweep is None else serialize.sweep_dict(sd.sweep),
                "attribution": serialize.attribution_dict(sd.attribution),
                "buckets": serialize.buckets_dict(sd.buckets),
                "per_image_hmean": dict(sd.hmeans),
                "note": sd.note,
            }
        )
    first = sides[0]
    return {
        "metric": job.metric,
        "params": dataclasses.asdict(job.params),
        "fallback": job.fallback,
        "sides": sides,
        # A's analyses, where earlier reports kept them
        "sweep": first["sweep"],
        "attribution": first["attribution"],
        "buckets": first["buckets"],
        "per_image_hmean": first["per_image_hmean"],
        "note": first["note"],
        "classes_both": serialize.class_pairs_dict(data.classes),
        "buckets_both": serialize.bucket_pairs_dict(data.bucket_pairs),
        "bootstrap": serialize.bootstrap_dict(data.bootstrap),
        "worst": worst["by_hmean_a"],
        "worst_groups": worst,
    }


def _notes(d: dict[str, Any], names: list[str]) -> list[str]:
    out = []
    for name, side in zip(names, d["sides"], strict=False):
        sw = side["sweep"]
        if sw:
            best = max(sw["points"], key=lambda p: p["hmean"])
            out.append(
                f"<p>Best score threshold of {e(name)}: {sw['best_threshold']:.4g} "
                f"(H-mean {best['hmean']:.4f}), <b>chosen on the evaluated set itself</b>: an "
                "optimistic figure, not a held-out score.</p>"
            )
    b = d["bootstrap"]
    if b:
        out.append(
            f"<p>Is B ({e(names[-1])}) really better than A ({e(names[0])})? ΔH "
            f"{b['delta']:+.4f}, 95 % interval [{b['low']:+.4f}, {b['high']:+.4f}] over "
            f"{b['resamples']} paired bootstrap resamples of {b['images']} images; B ≤ A in "
            f"{100 * b['share_not_better']:.1f} % of them. Images where B is better "
            f"{b['better']}, worse {b['worse']}, equal {b['equal']}.</p>"
        )
    return out


def _figure(png: str, caption: str) -> str:
    svg = png.removesuffix(".png") + ".svg"
    return (
        f"<figure class=plot><img src='{e(png)}' alt='{e(caption)}' width='{PLOT_SIZE[0]}' "
        f"height='{PLOT_SIZE[1]}'><figcaption>{e(caption)} (<a href='{e(png)}'>PNG</a>, "
        f"<a href='{e(svg)}'>SVG</a>)</figcaption></figure>"
    )


def _caption(name: str, data: AnalysisData) -> str:
    both = f", {data.names[0]} solid and {data.names[1]} dashed" if data.b else ""
    if name == "sweep":
        return CAPTIONS["sweep"].format(both=both)
    if name.startswith("buckets_"):
        attr = name.removeprefix("buckets_")
        words = plots.ATTRIBUTE_WORDS.get(attr, attr)
        side = f" for {data.names[0]} and {data.names[1]}" if data.b else ""
        return (
            f"Recall of the GT boxes grouped by {words}{side}; the count of GT boxes is "
            "under each bucket"
        )
    side = f", for {data.names[0]} and {data.names[1]}" if data.b else ""
    return CAPTIONS[name].format(both=side)


def _thumbs(items: Sequence[dict[str, Any]], label: Callable[[dict[str, Any]], str]) -> str:
    parts = ["<div class=thumbs>"]
    for w in items:
        parts.append(
            f"<figure><a href='{e(w['full'])}'><img src='{e(w['thumb'])}' "
            f"alt='{e(w['sample'])}'></a><figcaption>{e(w['sample'])}: {e(label(w))}"
            "</figcaption></figure>"
        )
    parts.append("</div>")
    return "".join(parts)


def _worst_html(d: dict[str, Any], names: list[str]) -> str:
    groups = d["worst_groups"]
    parts = []
    for k, name in enumerate(names[: len(d["sides"])]):
        items = groups.get(f"by_hmean_{'ab'[k]}", [])
        if items:
            parts.append(f"<h3>Lowest H-mean under {e(name)} (click for full size)</h3>")
            parts.append(_thumbs(items, lambda w: f"H-mean {w['hmean']:.3f}"))
    if groups.get("by_delta"):
        parts.append(
            f"<h3>Where B ({e(names[-1])}) loses and gains most against A "
            f"({e(names[0])}), by ΔH</h3>"
        )
        parts.append(
            _thumbs(
                groups["by_delta"],
                lambda w: f"H {w['hmean_a']:.3f} → {w['hmean_b']:.3f} (ΔH {w['delta']:+.3f})",
            )
        )
    return "".join(parts)


def _section(d: dict[str, Any], figs: dict[str, str], names: list[str], data: AnalysisData) -> str:
    rows = [side_row(n, s) for n, s in zip(names, d["sides"], strict=False)]
    parts = [f"<section><h2>{e(d['metric'])}</h2>"]
    if d["fallback"]:  # the parameter values the data needed, as eval and the viewer say
        parts.append(f"<p class=warn>{e(d['metric'])} {e(d['fallback'])}.</p>")
    parts.append(table(("detections", "recall", "precision", "H-mean", "images"), rows))
    parts += _notes(d, names)
    if d["note"]:
        parts.append(f"<p>{e(d['note'])}</p>")
    for name in ("sweep", "pr"):
        if name in figs:
            parts.append(_figure(figs[name], _caption(name, data)))
    parts.append("<h3>Where the H-mean goes</h3>")
    parts.append(_figure(figs["attribution"], _caption("attribution", data)))
    parts.append(attribution_table(data))
    parts.append("<h3>Which text fails</h3>")
    for attr in data.buckets:
        parts.append(_figure(figs[f"buckets_{attr}"], _caption(f"buckets_{attr}", data)))
        parts.append(bucket_table(data, attr))
    parts.append("<h3>Images by H-mean</h3>")
    for name in ("histogram", "scatter"):
        if name in figs:
            parts.append(_figure(figs[name], _caption(name, data)))
    parts.append(_worst_html(d, names))
    parts.append("</section>")
    return "\n".join(parts)


STYLE = (
    "body{font-family:sans-serif;margin:2em auto;max-width:1000px;padding:0 1em;"
    "line-height:1.4}table{border-collapse:collapse;margin:.5em 0}"
    "td,th{border:1px solid #ccc;padding:2px 8px;text-align:right;white-space:nowrap}"
    "th{white-space:normal}td:first-child,th:first-child{text-align:left}"
    "tr.na td{color:#999;background:#f4f4f4}"
    "p.note{color:#555;font-size:.9em;margin:.2em 0}"
    "figure{margin:1em 0}figure.plot img{display:block;width:100%;height:auto;"
    "border:1px solid #ddd}figcaption{font-size:.9em;color:#333}"
    ".thumbs{display:flex;flex-wrap:wrap;gap:1em}.thumbs figure{margin:0;width:31%}"
    ".thumbs img{width:100%;height:auto;border:1px solid #ddd}h3{font-size:1.05em}"
    ".warn{color:#b45309}"
    "@media print{body{margin:0;max-width:none}figure,table,.thumbs figure"
    "{break-inside:avoid}h2,h3{break-after:avoid}section{break-before:page}"
    "a{color:inherit;text-decoration:none}table{font-size:8pt}td,th{padding:1px 4px}}"
    "@page{size:A4;margin:12mm}"
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
        side = None
        if other is not None:
            side = (datasets[-1], job.params)
        data = compute(datasets[0], job.evals[0], job.params, other, pair, other_side=side)
        progress(3 * k + 1, total)
        figs = _plots(data, folder, job.metric)
        progress(3 * k + 2, total)
        items = _worst(datasets[0], job, names, list(datasets), worst, folder)
        progress(3 * k + 3, total)
        d = _json(job, data, items)
        docs.append(d)
        sections.append(_section(d, figs, names, data))
    title = " vs ".join(names)
    atomic_write(
        folder / "report.json",
        json.dumps({"detections": names, "metrics": docs}, indent=1, default=float) + "\n",
    )
    page = (
        f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>detlens report: "
        f"{e(title)}</title><style>{STYLE}</style></head><body><h1>detlens report: "
        f"{e(title)}</h1>{headline(docs, names)}{''.join(float_notes(datasets, names, floats))}"
        f"{''.join(coverage_notes(docs, names))}{''.join(sections)}"
        "</body></html>\n"
    )
    atomic_write(folder / "index.html", page)
