"""MMOCR 1.x: the text-detection dataset JSON (GT) and the prediction dumps (detections).

- Dataset (``TextDetDataset`` annotation file): ``{"metainfo": {...}, "data_list": [{"img_path",
  "height", "width", "instances": [{"polygon": [x1, y1, ...], "bbox": [x1, y1, x2, y2],
  "bbox_label", "ignore", "text"?}]}]}``; ``ignore`` true is don't-care; ``polygon`` is the
  geometry (``bbox`` as an LTRB box when there is no polygon).
- Predictions: ``{"det_polygons": [[x1, y1, ...], ...], "det_scores": [...]}`` per image
  (``MMOCRInferencer(save_pred=True)`` writes one per image, named after it), or one file for
  all: the inferencer's ``{"predictions": [...]}`` or a list of such objects, each naming its
  image (``img_path``), or an object mapping image names to them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from metrics.core.model import BoxType, Instance, ltrb_points
from metrics.io.archive import Member
from metrics.io.formats.base import (
    Entry,
    Format,
    Report,
    Role,
    confidence,
    extras,
    geometry,
    image_id,
    instance,
    json_entries,
    json_or_none,
    numbers,
    sample_id,
    unexpected,
)

_KNOWN = frozenset({"polygon", "bbox", "ignore", "text"})
_IMAGE_KEYS = ("img_path", "img_name", "image", "filename")


def sniff_dataset(member: Member, role: Role) -> float | None:
    data = json_or_none(member)
    ok = role == "gt" and isinstance(data, dict) and isinstance(data.get("data_list"), list)
    return 1.0 if ok else 0.0


def _gt_instance(obj: Any, path: str, k: int, report: Report, sid: str) -> Instance | None:
    if not isinstance(obj, dict):
        report.error(path, "is not an object", sid)
        return None
    text = obj.get("text")
    attrs = extras(obj, _KNOWN)
    ignore = bool(obj.get("ignore", False))
    if "polygon" not in obj and "bbox" in obj:
        box = numbers(obj["bbox"], 4)
        if box is None:
            report.error(f"{path}.bbox", "must hold 4 numbers x1, y1, x2, y2", sid)
            return None
        x1, y1, x2, y2 = box
        if x2 < x1 or y2 < y1:
            report.error(f"{path}.bbox", "x2 < x1 or y2 < y1", sid)
            return None
        pts = ltrb_points(x1, y1, x2, y2)
        integer = bool(np.all(pts == np.round(pts)))
        return instance(
            pts,
            integer,
            line=k + 1,
            text=text,
            dont_care=ignore,
            attrs=attrs,
            box_type=BoxType.LTRB,
        )
    got = geometry(obj, ("polygon",), path, report, sid)
    if got is None:
        return None
    return instance(got[0], got[1], line=k + 1, text=text, dont_care=ignore, attrs=attrs)


def read_dataset(member: Member, role: Role, report: Report) -> list[Entry]:
    data = json_entries(member, report)
    if not isinstance(data, dict) or not isinstance(data.get("data_list"), list):
        unexpected(report, data, "a JSON object with a 'data_list' list")
        return []
    out = []
    for i, item in enumerate(data["data_list"]):
        path = f"data_list[{i}]"
        if not isinstance(item, dict) or not isinstance(item.get("img_path"), str):
            report.error(path, "needs an 'img_path' string")
            continue
        sid = image_id(item["img_path"])
        raw = item.get("instances", [])
        if not isinstance(raw, list):
            report.error(f"{path}.instances", "is not a list", sid)
            continue
        insts = [
            _gt_instance(o, f"{path}.instances[{k}]", k, report, sid) for k, o in enumerate(raw)
        ]
        out.append(
            Entry(
                sid,
                tuple(i for i in insts if i is not None),
                f"{member.label}:{path}",
                item["img_path"],
            )
        )
    return out


def _at(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _is_pred(value: Any) -> bool:
    return isinstance(value, dict) and "det_polygons" in value


def _preds(data: Any) -> list[tuple[str, str | None, Any]] | None:
    """(JSON path, image name or None, prediction object) of each image, or None."""
    if _is_pred(data):
        return [("", _image_of(data), data)]
    if isinstance(data, dict) and isinstance(data.get("predictions"), list):
        return [(f"predictions[{k}]", _image_of(p), p) for k, p in enumerate(data["predictions"])]
    if isinstance(data, list) and data and all(_is_pred(p) for p in data):
        return [(f"[{k}]", _image_of(p), p) for k, p in enumerate(data)]
    if isinstance(data, dict) and data and all(_is_pred(v) for v in data.values()):
        return [(f"[{k!r}]", k, v) for k, v in data.items()]
    return None


def _image_of(pred: Any) -> str | None:
    if not isinstance(pred, dict):
        return None
    return next((pred[k] for k in _IMAGE_KEYS if isinstance(pred.get(k), str)), None)


def sniff_preds(member: Member, role: Role) -> float | None:
    data = json_or_none(member)
    return 1.0 if role == "det" and data is not None and _preds(data) is not None else 0.0


def _det_instances(pred: Any, path: str, report: Report, sid: str) -> list[Instance]:
    if not isinstance(pred, dict):
        report.error(path, "is not a prediction object", sid)
        return []
    polys, scores = pred.get("det_polygons"), pred.get("det_scores")
    if not isinstance(polys, list):
        report.error(_at(path, "det_polygons"), "is not a list", sid)
        return []
    if scores is not None and (not isinstance(scores, list) or len(scores) != len(polys)):
        report.error(_at(path, "det_scores"), "must be a list as long as det_polygons", sid)
        return []
    texts = pred.get("rec_texts")
    texts = texts if isinstance(texts, list) and len(texts) == len(polys) else None
    out = []
    for k, poly in enumerate(polys):
        where = _at(path, f"det_polygons[{k}]")
        got = geometry({"p": poly}, ("p",), where, report, sid)
        score = None if scores is None else confidence(scores[k])
        if isinstance(score, str):
            report.error(_at(path, f"det_scores[{k}]"), score, sid)
            continue
        if got is not None:
            text = None if texts is None else str(texts[k])
            out.append(instance(got[0], got[1], line=k + 1, confidence=score, text=text))
    return out


def read_preds(member: Member, role: Role, report: Report) -> list[Entry]:
    data = json_entries(member, report)
    found = None if data is None else _preds(data)
    if found is None:
        unexpected(report, data, "MMOCR predictions ('det_polygons', 'det_scores')")
        return []
    out = []
    for path, image, pred in found:
        if image is None and len(found) > 1:
            report.error(path, "names no image (img_path): it cannot be paired")
            continue
        sid = image_id(image) if image else sample_id(member.name, role)
        label = f"{member.label}:{path}" if path else member.label
        out.append(Entry(sid, tuple(_det_instances(pred, path, report, sid)), label, image))
    return out


DATASET = Format(
    "mmocr",
    "MMOCR 1.x text-detection dataset JSON",
    ("gt",),
    sniff_dataset,
    read_dataset,
    detected_by="JSON object with a 'data_list' list",
    dont_care="ignore: true",
    attributes="bbox_label and any other scalar field",
)
PREDS = Format(
    "mmocr_pred",
    "MMOCR prediction JSON (det_polygons, det_scores)",
    ("det",),
    sniff_preds,
    read_preds,
    detected_by="JSON with 'det_polygons' (per image, 'predictions' list or name map)",
    dont_care="-",
    attributes="confidence (det_scores), rec_texts",
)
