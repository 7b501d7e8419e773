"""The top of the report: the headline figures of every metric and side, and what they
cover (non-integer coordinates, images skipped), before any section."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

from metrics.core.floats import check_mode, float_note
from metrics.core.jsonvalue import JSONValue
from metrics.core.model import Dataset
from viewer.analysis.tables import e, table

Doc = Mapping[str, JSONValue]  # a metric's document of the report (``report._json``)


def _obj(value: JSONValue) -> Doc:
    """An object of the report's own document, whose shape ``report._json`` fixes."""
    return cast(Doc, value)


def _list(value: JSONValue) -> Sequence[JSONValue]:
    """A list of the report's own document, whose shape ``report._json`` fixes."""
    return cast("Sequence[JSONValue]", value)


def side_row(name: str, side: Doc) -> tuple[object, ...]:
    """A side's row: its figures and the images they cover; "–" for a side that read fewer
    than half of the images (no score of the set)."""
    cov = _obj(side["coverage"])
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
            out.append(f"<p class=warn>{e(name)}: {e(note)}</p>")
    return out


def coverage_notes(docs: Sequence[Doc], names: list[str]) -> list[str]:
    """The report's header: each metric and side scored on part of the set, on how many
    images, and why there is no score where fewer than half were read."""
    out = []
    for d in docs:
        for name, side in zip(names, _list(d["sides"]), strict=False):
            cov = _obj(_obj(side)["coverage"])
            if not cov["skipped"]:
                continue
            what = f"{d['metric']} on {name}: on {cov['images']} of {cov['of']} images"
            why = cov.get("why_no_score") or f"{cov['skipped']} skipped (input errors)"
            out.append(f"<p class=warn>{e(what)}; {e(why)}</p>")
    if docs and not out:
        out.append("<p>Every image was evaluated by every metric (none skipped).</p>")
    return out


def headline(docs: Sequence[Doc], names: list[str]) -> str:
    """The figures of every metric and side, first thing on the page."""
    rows = []
    for d in docs:
        for name, side in zip(names, _list(d["sides"]), strict=False):
            rows.append((d["metric"], *side_row(name, _obj(side))))
        if d["bootstrap"]:
            b = _obj(d["bootstrap"])
            rows.append(
                (
                    d["metric"],
                    "B − A",
                    "",
                    "",
                    f"{b['delta']:+.4f}",
                    f"95 %: [{b['low']:+.4f}, {b['high']:+.4f}]",
                )
            )
    return table(("metric", "detections", "recall", "precision", "H-mean", "images"), rows)
