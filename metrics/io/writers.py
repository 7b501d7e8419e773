"""JSON and CSV output of evaluations (``detlens eval --json / --csv``)."""

from __future__ import annotations

import csv
import dataclasses
import functools
import math
import os
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import shapely

from metrics.core.evidence import Region
from metrics.core.jsonvalue import JSONObject, JSONValue
from metrics.core.partial import coverage
from metrics.core.protocols import Params
from metrics.core.results import Evaluation, SampleResult, SweepTally
from metrics.io.atomic import atomic_write
from metrics.io.json_stream import DocumentObject, Entries, write_document
from metrics.shapes.geometry import rings_of


def _num(x: float) -> float | None:
    return None if math.isnan(x) else float(x)


def jsonable(obj: object) -> JSONValue:
    """Evidence as JSON values: arrays -> lists, geometries -> lists of rings, enums -> str."""
    if obj is None or isinstance(obj, bool | int | str):
        return obj
    if isinstance(obj, float):
        return _num(obj)
    if isinstance(obj, np.generic):
        return jsonable(obj.item())
    if isinstance(obj, np.ndarray):
        return jsonable(obj.tolist())
    if isinstance(obj, Region):
        return [r.tolist() for r in obj.rings]
    if isinstance(obj, shapely.Geometry):
        return [r.tolist() for r in rings_of(obj)]
    if isinstance(obj, Mapping):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: jsonable(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, list | tuple | set | frozenset):
        return [jsonable(v) for v in obj]
    return str(obj)


def _whole(r: SampleResult) -> SampleResult:
    """``r``, refused when it was evaluated for a summary (``SampleResult.complete``): its
    empty GT list and match records would be written as "no GT, no match"."""
    if not r.complete:
        raise ValueError(f"{r.metric} on {r.sample_id}: evaluated for a summary, no lists")
    return r


def evidence_dict(r: SampleResult) -> JSONObject:
    """The per-instance evidence of one sample (``--evidence``)."""
    r = _whole(r)
    return {
        "gt": jsonable(r.gt),
        "det": jsonable(r.det),
        "matches": jsonable(r.matches),
        "evidence": jsonable(r.evidence),
        "warnings": [str(p) for p in r.warnings],
    }


def sample_dict(r: SampleResult, evidence: bool = False) -> JSONObject:
    """Per-image entry: R/P/H, counts, and the match pairs as (gt indices, det indices)."""
    r = _whole(r)
    out: dict[str, Any] = {"recall": r.recall, "precision": r.precision, "hmean": r.hmean}
    out.update({k: _num(v) for k, v in r.extra.items()})
    out["pairs"] = [
        {"gt": list(m.gt), "det": list(m.det), "kind": m.kind.value, "label": m.label}
        for m in r.matches
    ]
    out["gt_dont_care"] = [g.index for g in r.gt if g.verdict == "dont_care"]
    out["det_dont_care"] = [d.index for d in r.det if d.verdict == "dont_care"]
    if isinstance(r.tally, SweepTally):
        out["sweep_counts"] = sweep_counts(r.tally)
    if evidence:
        out["evidence"] = evidence_dict(r)
    return out


def sweep_counts(t: SweepTally) -> list[list[float]]:
    """[hits, care GT, kept dets] at every threshold of a swept tally."""
    return [[h, t.n_gt_care, k] for h, k in zip(t.hits, t.kept, strict=True)]


def sweep_dict(t: SweepTally) -> JSONObject:
    """A swept metric's global ``best_threshold``, ``thresholds`` and ``sweep`` (in threshold
    order: threshold, recall, precision, hmean and the counts behind them)."""
    return {
        "best_threshold": t.best_threshold,
        "thresholds": list(t.thresholds),
        "sweep": [jsonable(p) for p in t.sweep()],
    }


def evaluation_dict(ev: Evaluation[Params], evidence: bool = False) -> JSONObject:
    """``{"metric", "params", "global", "per_image", "problems", "excluded", "coverage"}``
    (``coverage``: ``metrics.core.partial.Coverage.as_dict``). An evaluation for the
    summary alone (``Evaluation.complete`` False) is refused."""
    head = _head(ev)
    per_image = {sid: sample_dict(r, evidence) for sid, r in ev.results.items()}
    return {**head, "per_image": per_image, **_tail(ev)}


def evaluation_document(ev: Evaluation[Params], evidence: bool = False) -> DocumentObject:
    """``evaluation_dict`` with ``per_image`` made entry by entry as it is written
    (``metrics.io.json_stream.Entries``)."""
    items = list(ev.results.items())
    made = ((sid, functools.partial(sample_dict, r, evidence)) for sid, r in items)
    return {**_head(ev), "per_image": Entries(made, not items), **_tail(ev)}


def _head(ev: Evaluation[Params]) -> JSONObject:
    if not ev.complete:
        raise ValueError(f"{ev.metric}: evaluated for the summary alone, no per-image results")
    glob: JSONObject = {"recall": ev.recall, "precision": ev.precision, "hmean": ev.hmean}
    if ev.summary is not None:
        glob.update(ev.summary.tally.values)
        glob["num_samples"] = ev.summary.n_samples
    glob.update(ev.extras)
    glob.update(_not_reported(ev))
    if ev.sweep is not None:
        glob.update(sweep_dict(ev.sweep))
    return {"metric": ev.metric, "params": dataclasses.asdict(ev.params), "global": glob}


def _tail(ev: Evaluation[Params]) -> JSONObject:
    return {
        "problems": [str(p) for p in ev.problems],
        "excluded": list(ev.excluded),
        "coverage": coverage(ev).as_dict(),  # the images "global" covers; a score or not
    }


def _not_reported(ev: Evaluation[Params]) -> JSONObject:
    """``{"not_reported": {"ap": why}}`` for a metric whose official AP is no score (TedEval's,
    always 0), declared by its ``MetricSpec.confidences``; else nothing."""
    from metrics.catalogue.registry import METRICS

    spec = METRICS.get(ev.metric)
    why = spec.confidences.not_reported(ev.params) if spec and spec.confidences else {}
    return {"not_reported": why} if why else {}


def write_json(
    path: str | os.PathLike[str],
    evaluations: Sequence[Evaluation[Params]],
    evidence: bool = False,
    analyses: Mapping[str, Mapping[str, JSONValue]] | None = None,
) -> None:
    """One object for one metric, a list of objects for several; ``analyses`` (by metric
    id: sweep, attribution, ... as ``metrics.analysis.serialize`` makes them) go under the
    metric's ``"analysis"``."""
    data = [evaluation_document(e, evidence) for e in evaluations]
    for doc, ev in zip(data, evaluations, strict=True):
        if analyses and ev.metric in analyses:
            doc["analysis"] = dict(analyses[ev.metric])
    write_document(path, data[0] if len(data) == 1 else data)  # written as it is made


def write_csv(path: str | os.PathLike[str], evaluations: Sequence[Evaluation[Params]]) -> None:
    """One row per metric and sample, plus one ``*`` row per metric with the global scores;
    its ``images`` column says on how many of the set's images they are, and ``score`` is
    ``no`` where fewer than half were read (the figures are then not the set's score)."""
    import io

    buf = io.StringIO()
    w = csv.writer(buf)
    head = ["metric", "sample", "recall", "precision", "hmean", "num_gt_care", "num_det_care"]
    w.writerow([*head, "images", "score"])
    for ev in evaluations:
        if not ev.complete:
            raise ValueError(f"{ev.metric}: evaluated for the summary alone, no per-image rows")
        for sid, r in ev.results.items():
            w.writerow(
                [
                    ev.metric,
                    sid,
                    r.recall,
                    r.precision,
                    r.hmean,
                    int(r.tally.n_gt_care),
                    int(r.tally.n_det_care),
                    "",
                    "",
                ]
            )
        tally = ev.summary.tally if ev.summary else None
        cov = coverage(ev)
        w.writerow(
            [
                ev.metric,
                "*",
                ev.recall,
                ev.precision,
                ev.hmean,
                int(tally.n_gt_care) if tally else 0,
                int(tally.n_det_care) if tally else 0,
                f"{cov.evaluated} of {cov.total}",
                "yes" if cov.scored else "no",
            ]
        )
    atomic_write(path, buf.getvalue())
