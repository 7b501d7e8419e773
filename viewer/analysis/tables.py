"""The Analysis tables as HTML, shared by the report and the Analysis panel: attribution
(A, B and B − A per class; a class the metric cannot have greyed with the sentence saying
how it books such an error), buckets (A, B, B − A and the 95 % interval per bucket) and the
images by ΔH. Rows are built from ``AnalysisData`` (no formula here)."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

from metrics.analysis.attribution import ClassGain
from metrics.analysis.both import BucketPair
from metrics.analysis.buckets import Bucket
from viewer.analysis.data import AnalysisData

NA = "n/a"


def e(x: object) -> str:
    return html.escape(str(x))


def table(head: Sequence[str], rows: Sequence[Sequence[object]], grey: Sequence[bool] = ()) -> str:
    """An HTML table; rows flagged in ``grey`` get class ``na``."""
    th = "".join(f"<th>{e(h)}</th>" for h in head)
    body = []
    for k, r in enumerate(rows):
        cls = " class='na'" if k < len(grey) and grey[k] else ""
        body.append(f"<tr{cls}>" + "".join(f"<td>{e(c)}</td>" for c in r) + "</tr>")
    return f"<table><tr>{th}</tr>{''.join(body)}</table>"


def _count(c: ClassGain) -> str:
    return NA if c.impossible else f"{c.count:g} {c.unit}"


def _gain(c: ClassGain) -> str:
    return NA if c.impossible else f"{c.gain:+.4f}"


def attribution_table(data: AnalysisData) -> str:
    """Where the H-mean goes, for one side or both, with the sentences of the classes the
    metric cannot have and the ceiling note under it ("" without attribution)."""
    a = data.attribution
    if not a.classes:
        return f"<p>no attribution: {e(a.note)}</p>" if a.note else ""
    notes = [c.impossible for c in a.classes if c.impossible]
    grey = [bool(c.impossible) for c in a.classes]
    rows: list[tuple[str, ...]]
    if data.b is None or not data.classes:
        head: tuple[str, ...] = ("class", "count (unit)", "H fixed", "gain")
        rows = [
            (c.name, _count(c), NA if c.impossible else f"{c.hmean:.4f}", _gain(c))
            for c in a.classes
        ]
    else:
        na, nb = data.names
        head = ("class", f"count {na}", f"gain {na}", f"count {nb}", f"gain {nb}", "B − A")
        rows = [
            (
                p.name,
                _count(p.a),
                _gain(p.a),
                _count(p.b),
                _gain(p.b),
                NA if p.a.impossible and p.b.impossible else f"{p.delta:+.4f}",
            )
            for p in data.classes
        ]
        notes += [p.b.impossible for p in data.classes if p.b.impossible and not p.a.impossible]
        grey = [bool(p.a.impossible and p.b.impossible) for p in data.classes]
        ceiling = data.b.attribution.ceiling_note()
        if ceiling:
            notes.append(f"{nb}: {ceiling}")
    if a.ceiling_note():
        notes.append(f"{data.names[0]}: {a.ceiling_note()}" if data.b else a.ceiling_note())
    out = table(head, rows, grey)
    return out + "".join(f"<p class='note'>{e(n)}</p>" for n in dict.fromkeys(notes))


def bucket_rows(buckets: Sequence[Bucket]) -> list[tuple[object, ...]]:
    """Rows of one side's bucket table; a bucket with no GT (no detection) has no recall
    (no precision): "–", not a 0.0000 that reads as a measured failure."""
    return [
        (
            b.label,
            b.n_gt,
            f"{b.recall:.4f}" if b.n_gt else "–",
            b.n_det,
            f"{b.precision:.4f}" if b.n_det else "–",
        )
        for b in buckets
    ]


def _interval(p: BucketPair) -> str:
    if p.low is None or p.high is None:
        return "–"
    return f"[{p.low:+.3f}, {p.high:+.3f}]"


def bucket_table(data: AnalysisData, attr: str) -> str:
    """Recall (and precision) per bucket of ``attr``: A's, or A, B, B − A and its interval."""
    pairs = data.bucket_pairs.get(attr)
    if data.b is None or not pairs:
        one = ("bucket", "GT", "recall", "dets", "precision")
        return table(one, bucket_rows(data.buckets.get(attr, [])))
    na, nb = data.names
    rows = [
        (
            p.label,
            p.a.n_gt,
            f"{p.a.recall:.4f}" if p.a.n_gt else "–",
            f"{p.b.recall:.4f}" if p.b.n_gt else "–",
            f"{p.delta:+.4f}" if p.a.n_gt else "–",
            _interval(p),
            f"{p.a.precision:.4f}" if p.a.n_det else "–",
            f"{p.b.precision:.4f}" if p.b.n_det else "–",
        )
        for p in pairs
    ]
    what = "95 % interval" if data.same_metric else "interval (none: two metrics)"
    head = ("bucket", "GT", f"recall {na}", f"recall {nb}", "B − A", what)
    return table((*head, f"precision {na}", f"precision {nb}"), rows)


def delta_rows(data: AnalysisData, n: int) -> list[tuple[str, float, float]]:
    """B's ``n`` largest losses against A, then its ``n`` largest gains (no image twice)."""
    rows = list(data.by_delta)
    losses = [r for r in rows[:n] if r[2] < r[1]]
    gains = [r for r in reversed(rows[-n:]) if r[2] > r[1] and r not in losses]
    return losses + gains


def lowest_rows(hmeans: Mapping[str, float], n: int) -> list[tuple[str, float]]:
    """The ``n`` images of lowest H-mean, ties by sample id."""
    return sorted(hmeans.items(), key=lambda kv: (kv[1], kv[0]))[:n]


def _links(head: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> str:
    """A table whose first column links to its sample (``href`` = sample id)."""
    th = "".join(f"<th>{e(h)}</th>" for h in head)
    body = "".join(
        f"<tr><td><a href='{e(r[0])}'>{e(r[0])}</a></td>"
        + "".join(f"<td>{c}</td>" for c in r[1:])
        + "</tr>"
        for r in rows
    )
    return f"<table><tr>{th}</tr>{body}</table>"


def tables_html(data: AnalysisData, attr: str, n: int = 10) -> str:
    """The panel's tables: attribution, the buckets of ``attr``, each side's images of
    lowest H-mean and, when comparing, the images by ΔH, as links (``href`` = sample id)."""
    parts = ["<style>td,th{padding:1px 6px}tr.na td{color:#999}</style>"]
    parts.append("<h4>Where the H-mean goes</h4>" + attribution_table(data))
    parts.append(f"<h4>Recall by {e(attr)}</h4>" + bucket_table(data, attr))
    for side in (data.a, data.b):
        if side is not None and side.hmeans:
            worst = [(sid, f"{h:.3f}") for sid, h in lowest_rows(side.hmeans, n)]
            parts.append(f"<h4>Lowest H-mean under {e(side.name)}</h4>")
            parts.append(_links(("image", "H-mean"), worst))
    rows = delta_rows(data, n)
    if rows:
        na, nb = data.names
        parts.append(f"<h4>Images where {e(nb)} loses or gains most against {e(na)}</h4>")
        cells = [(s, f"{ha:.3f}", f"{hb:.3f}", f"{hb - ha:+.3f}") for s, ha, hb in rows]
        parts.append(_links(("image", f"H {na}", f"H {nb}", "ΔH"), cells))
    return "".join(parts)
