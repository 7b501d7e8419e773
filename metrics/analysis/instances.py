"""Every instance, exportable: one row per GT and per detection of every evaluated image.

Columns: ``metric``, ``sample``, ``side`` (gt / det), ``index`` and ``partners`` (numbered
from 1 like the lines of their file), ``line`` and ``source``, ``verdict``, ``credit``, the
near miss (``near_partner``, ``near_value``, ``near_measure``), ``absorbed_by`` (the
don't-care GT of an absorbed detection), ``values`` (the numbers behind the decision, e.g.
IoU, TIoU's cut and outlier terms, as JSON in CSV), ``confidence``, ``text`` and the box
attributes (``metrics.analysis.attributes``). ``.csv`` or ``.jsonl`` by the file name.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from metrics.analysis.attributes import attributes
from metrics.catalogue.registry import METRICS
from metrics.core.jsonvalue import JSONObject
from metrics.core.model import Dataset, Instance
from metrics.core.protocols import Params
from metrics.core.results import Evaluation, InstanceResult, MatchRecord
from metrics.io.atomic import atomic_write

COLUMNS = (
    "metric",
    "sample",
    "side",
    "index",
    "line",
    "source",
    "verdict",
    "credit",
    "partners",
    "match",
    "near_partner",
    "near_value",
    "near_measure",
    "absorbed_by",
    "values",
    "confidence",
    "text",
    "height",
    "width",
    "aspect",
    "angle",
    "vertical",
    "shape",
    "text_length",
)
FORMATS = (".csv", ".jsonl")


def _num(x: Any) -> Any:
    if isinstance(x, np.generic):
        x = x.item()
    return None if isinstance(x, float) and not math.isfinite(x) else x


def _match(r_matches: Sequence[MatchRecord], side: str, index: int) -> str:
    for m in r_matches:
        if index in (m.gt if side == "gt" else m.det):
            return m.label or m.kind.value
    return ""


def _row(
    metric: str, sid: str, side: str, inst: Instance, ir: InstanceResult, r_matches: Any, src: str
) -> JSONObject:
    nm = ir.near_miss
    row: dict[str, Any] = {
        "metric": metric,
        "sample": sid,
        "side": side,
        "index": int(ir.index) + 1,
        "line": inst.line,
        "source": src,
        "verdict": ir.verdict.value,
        "credit": ir.credit,
        "match": _match(r_matches, side, ir.index),
        "near_partner": None if nm is None else int(nm.partner) + 1,
        "near_value": None if nm is None else nm.value,
        "near_measure": None if nm is None else nm.measure,
        "absorbed_by": None if ir.absorbed_by is None else int(ir.absorbed_by) + 1,
        "values": {k: _num(float(v)) for k, v in ir.values.items()},
        "partners": [int(p) + 1 for p in ir.partners],
        "confidence": inst.confidence,
        "text": inst.text,
    }
    row.update({k: _num(v) for k, v in attributes(inst).items()})
    return row


def rows(
    data: Dataset | Mapping[str, Dataset], evaluations: Sequence[Evaluation[Params]]
) -> Iterator[JSONObject]:
    """The rows of every evaluation, image by image, GT before detections; ``data`` is the
    dataset, or the dataset each metric evaluated by metric id."""
    for ev in evaluations:
        spec = METRICS.get(ev.metric)
        ds = data if isinstance(data, Dataset) else data[ev.metric]
        for sid, r in ev.results.items():
            sample = ds[sid]
            if spec is not None and spec.view is not None:
                sample = spec.view(sample)
            for side, insts, res, src in (
                ("gt", sample.gt, r.gt, sample.gt_source or ""),
                ("det", sample.det, r.det, sample.det_source or ""),
            ):
                for ir in res:
                    if ir.index < len(insts):
                        yield _row(ev.metric, sid, side, insts[ir.index], ir, r.matches, src)


def _csv_cell(v: Any) -> Any:
    if isinstance(v, list):
        return ";".join(str(x) for x in v)
    if isinstance(v, dict):
        return json.dumps(v, sort_keys=True) if v else ""
    return "" if v is None else v


def write_instances(
    path: str | os.PathLike[str],
    ds: Dataset | Mapping[str, Dataset],
    evs: Sequence[Evaluation[Params]],
) -> int:
    """Write the rows to ``path`` (.csv or .jsonl) atomically; returns the row count."""
    name = os.fspath(path).lower()
    buf = io.StringIO()
    n = 0
    if name.endswith(".jsonl"):
        for row in rows(ds, evs):
            extra = {k: v for k, v in row.items() if k not in COLUMNS}
            out = {k: row.get(k) for k in COLUMNS}
            out.update(extra)
            buf.write(json.dumps(out, ensure_ascii=False, default=_num) + "\n")
            n += 1
    elif name.endswith(".csv"):
        all_rows = list(rows(ds, evs))
        more = sorted({k for row in all_rows for k in row if k not in COLUMNS})
        writer = csv.DictWriter(buf, fieldnames=[*COLUMNS, *more], lineterminator="\n")
        writer.writeheader()
        for row in all_rows:
            writer.writerow({k: _csv_cell(v) for k, v in row.items()})
        n = len(all_rows)
    else:
        raise ValueError(f"--instances {path}: give a .csv or .jsonl file name")
    atomic_write(path, buf.getvalue())
    return n
