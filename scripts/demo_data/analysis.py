"""Analysis of each detection against the GT (best match, IoU, coverage) and its notes."""

from __future__ import annotations

from dataclasses import dataclass

from .geometry import inter_area, iou, signed_area
from .model import Det, Scene

SPLIT_CASES = ("split2", "split3", "overlap_split")


@dataclass
class DetInfo:
    idx: int  # 1-based line number in the result file
    det: Det
    best: int  # 0-based index of the best GT by IoU, -1 if none overlaps
    iou: float
    dc_frac: float  # fraction of the det's area inside ### regions
    covers: list[tuple[int, float]]  # (GT index, fraction of that GT inside det)


def analyse(scene: Scene, dets: list[Det]) -> list[DetInfo]:
    infos = []
    for i, d in enumerate(dets, 1):
        ious = [iou(w.poly, d.poly) for w in scene.words]
        best = max(range(len(ious)), key=lambda k: ious[k])
        if ious[best] == 0:
            best = -1
        d_area = abs(signed_area(d.poly))
        dc = sum(inter_area(w.poly, d.poly) for w in scene.words if w.kind == "blur")
        covers = []
        for k, w in enumerate(scene.words):
            frac = inter_area(w.poly, d.poly) / abs(signed_area(w.poly))
            if frac > 0.05:
                covers.append((k, frac))
        infos.append(DetInfo(i, d, best, max(ious), dc / d_area, covers))
    return infos


def gt_ref(scene: Scene, k: int) -> str:
    return f"GT {k + 1} '{scene.words[k].label}'"


def covered_pair(scene: Scene, info: DetInfo) -> str:
    (k1, _), (k2, _) = sorted(info.covers, key=lambda c: -c[1])[:2]
    k1, k2 = sorted((k1, k2))
    i1, i2 = (iou(scene.words[k].poly, info.det.poly) for k in (k1, k2))
    return f"{gt_ref(scene, k1)} + {gt_ref(scene, k2)} (IoU {i1:.2f} / {i2:.2f})"


def case_note(scene: Scene, info: DetInfo) -> str:
    """One README/self-check sentence for a deliberately built case."""
    g, v, c = gt_ref(scene, info.best), info.iou, info.det.case
    if c in ("near_pass", "near_fail"):
        verdict = "just passes" if c == "near_pass" else "just fails"
        return f"IoU {v:.2f} with {g}: near miss, {verdict} the 0.5 threshold"
    if c == "crop":
        cov = dict(info.covers)[info.best]
        return f"crop of {g}: IoU {v:.2f}, {1 - cov:.0%} of the word cut off (TIoU)"
    if c == "swallow":
        k, frac = max((x for x in info.covers if x[0] != info.best), key=lambda x: x[1])
        return f"IoU {v:.2f} with {g} but swallows {frac:.0%} of {gt_ref(scene, k)} (TIoU outlier)"
    if c in ("merge", "multiline"):
        kind = "two words of one line" if c == "merge" else "two stacked lines"
        tail = "" if c == "merge" else " - TedEval multiline case"
        return f"merges {kind}: {covered_pair(scene, info)}{tail}"
    if c == "dontcare":
        k = next(k for k, _ in info.covers if scene.words[k].kind == "blur")
        return f"{info.dc_frac:.0%} of the box inside don't-care GT {k + 1} '###'"
    simple = {
        "fp": "false positive on background texture (no GT overlap)",
        "rotated": f"rotated quad on {g}: IoU {v:.2f}",
        "rotated_aabb": f"axis-aligned box on rotated {g}: IoU {v:.2f}",
        "curved_poly": f"{len(info.det.poly)}-point polygon on curved {g}: IoU {v:.2f}",
        "curved_box": f"loose axis-aligned quad on curved {g}: IoU {v:.2f}",
        "vertical": f"box on vertical word {g}: IoU {v:.2f}",
        "loose": f"loose box on {g}: IoU {v:.2f}",
        "case_only": f"'{info.det.text}' for {g}: case-only difference, IoU {v:.2f}",
    }
    return simple[c]


def split_notes(scene: Scene, infos: list[DetInfo]) -> list[str]:
    notes = []
    groups: dict[int, list[DetInfo]] = {}
    for info in infos:
        if info.det.case in SPLIT_CASES:
            groups.setdefault(info.best, []).append(info)
    for k, parts in groups.items():
        ids = ",".join(str(p.idx) for p in parts)
        ious = "/".join(f"{p.iou:.2f}" for p in parts)
        note = f"boxes {ids}: {gt_ref(scene, k)} split into {len(parts)} pieces (IoU {ious})"
        if parts[0].det.case == "overlap_split":
            ov = inter_area(parts[0].det.poly, parts[1].det.poly)
            note += f", pieces overlap by {ov / abs(signed_area(parts[0].det.poly)):.0%}"
        notes.append(note)
    return notes


def text_error(scene: Scene, info: DetInfo) -> str | None:
    skip = ("case_only", "crop", "swallow", *SPLIT_CASES)
    if info.best < 0 or info.iou < 0.5 or info.det.case in skip:
        return None
    label = scene.words[info.best].label
    if label == "###" or info.det.text == label:
        return None
    return f"box {info.idx}: reads '{info.det.text}' for '{label}' (recognition error)"


def misses(scene: Scene, infos: list[DetInfo]) -> list[int]:
    hit_gts = {k for info in infos for k, _ in info.covers}
    return [k for k, w in enumerate(scene.words) if w.kind != "blur" and k not in hit_gts]


def detector_notes(scene: Scene, infos: list[DetInfo]) -> list[str]:
    """Everything notable about one detector on one image."""
    exact = [str(i.idx) for i in infos if not i.det.case and i.iou >= 0.9]
    notes = [f"boxes {','.join(exact)}: exact hits (IoU >= 0.90)"] if exact else []
    for info in infos:
        if info.det.case and info.det.case not in SPLIT_CASES:
            notes.append(f"box {info.idx}: {case_note(scene, info)}")
    notes += split_notes(scene, infos)
    notes += [e for e in (text_error(scene, i) for i in infos) if e]
    missed = misses(scene, infos)
    if missed:
        notes.append("misses " + ", ".join(gt_ref(scene, k) for k in missed))
    return notes
