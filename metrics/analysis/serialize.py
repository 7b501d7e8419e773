"""The analyses as JSON values: what ``detlens eval --json`` (under each metric's
``"analysis"``), ``detlens compare --json`` and ``detlens report``'s ``report.json`` keep.

Every point of a sweep is kept (the tables print a subset and say so); a class a metric
cannot have keeps its sentence (``impossible``); counts carry their unit.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from metrics.analysis.attribution import Attribution
from metrics.analysis.bootstrap import Bootstrap
from metrics.analysis.both import BucketPair, ClassPair
from metrics.analysis.buckets import Bucket
from metrics.analysis.sweep import Sweep
from metrics.core.jsonvalue import JSONObject


def sweep_dict(sw: Sweep) -> JSONObject:
    """Method, best threshold (chosen on the evaluated set) and every point."""
    return {
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
    }


def attribution_dict(a: Attribution, per_image: bool = True) -> JSONObject:
    """Every class (name, errors fixed, count and unit, H fixed, gain, why impossible)."""
    out: dict[str, Any] = {
        "hmean": a.hmean,
        "note": a.note,
        "ceiling": a.ceiling,
        "ceiling_note": a.ceiling_note(),
        "classes": [dataclasses.asdict(c) for c in a.classes],
    }
    if per_image:
        out["per_image"] = {s: dict(g) for s, g in a.per_image.items()}
    return out


def bucket_dict(b: Bucket) -> JSONObject:
    return {k: v for k, v in dataclasses.asdict(b).items() if k != "gts"}


def buckets_dict(by_attr: Mapping[str, Sequence[Bucket]]) -> dict[str, list[JSONObject]]:
    return {k: [bucket_dict(b) for b in v] for k, v in by_attr.items()}


def bootstrap_dict(bs: Bootstrap | None) -> JSONObject | None:
    return None if bs is None else dataclasses.asdict(bs)


def class_pairs_dict(pairs: Sequence[ClassPair]) -> list[JSONObject]:
    """Per class: A's and B's gain, errors, count and unit, and B − A of the gains."""
    return [
        {
            "name": p.name,
            "a": dataclasses.asdict(p.a),
            "b": dataclasses.asdict(p.b),
            "delta_gain": p.delta,
            "impossible": p.a.impossible or p.b.impossible,
        }
        for p in pairs
    ]


def bucket_pairs_dict(
    by_attr: Mapping[str, Sequence[BucketPair]],
) -> dict[str, list[JSONObject]]:
    """Per attribute and bucket: A, B, B − A of the recall and its 95 % interval."""
    return {
        attr: [
            {
                "label": p.label,
                "images": p.images,
                "a": bucket_dict(p.a),
                "b": bucket_dict(p.b),
                "delta_recall": p.delta,
                "low": p.low,
                "high": p.high,
            }
            for p in pairs
        ]
        for attr, pairs in by_attr.items()
    }
