"""The --check self-check: shapely cross-check, case verification and determinism."""

from __future__ import annotations

import hashlib
import tempfile
from collections.abc import Callable
from pathlib import Path

from .analysis import DetInfo, analyse
from .config import MAX_BYTES, Poly
from .geometry import iou
from .model import Scene
from .readme import CASE_TITLES, case_index
from .writer import build_scenes, write_dataset


def icdar_orientation(poly: Poly) -> float:
    """ICDAR clockwise test: negative for clockwise in image coordinates."""
    n = len(poly)
    return sum(
        (poly[(i + 1) % n][0] - poly[i][0]) * (poly[(i + 1) % n][1] + poly[i][1]) for i in range(n)
    )


def check_polygons(scenes: list[Scene]) -> list[str]:
    """Validity, area, orientation; shapely IoU equals the generator's IoU."""
    from shapely.geometry import Polygon

    errors = []
    for s in scenes:
        polys = [("GT", w.poly) for w in s.words]
        polys += [("det_a", d.poly) for d in s.det_a] + [("det_b", d.poly) for d in s.det_b]
        for who, p in polys:
            sp = Polygon(p)
            if not sp.is_valid or sp.area <= 0 or icdar_orientation(p) >= 0:
                errors.append(f"img_{s.n} {who} bad polygon {p}")
        for d in s.det_a + s.det_b:
            for w in s.words:
                g, q = Polygon(w.poly), Polygon(d.poly)
                ref = g.intersection(q).area / g.union(q).area
                if abs(ref - iou(w.poly, d.poly)) > 1e-6:
                    errors.append(f"img_{s.n} IoU mismatch {ref} vs {iou(w.poly, d.poly)}")
    return errors


def print_detections(scenes: list[Scene]) -> None:
    from shapely.geometry import Polygon

    for s in scenes:
        print(f"\nimg_{s.n} ({s.size[0]}x{s.size[1]}, {len(s.words)} GT): {s.shows}")
        for name, dets in (("det_a", s.det_a), ("det_b", s.det_b)):
            for i, d in enumerate(dets, 1):
                q = Polygon(d.poly)
                ious = [
                    Polygon(w.poly).intersection(q).area / Polygon(w.poly).union(q).area
                    for w in s.words
                ]
                k = max(range(len(ious)), key=lambda j: ious[j])
                best = f"GT {k + 1:>2} {s.words[k].label!r:16} IoU {ious[k]:.3f}"
                if ious[k] == 0:
                    best = "no GT overlap"
                tag = f"[{d.case}]" if d.case else ""
                print(f"  {name} box {i:>2} {d.text!r:13} {d.conf:.2f}  {best} {tag}")


def rotated_gt(scene: Scene, k: int) -> bool:
    f = scene.words[k].frame
    return f is not None and f.angle != 0


def max_offset(scene: Scene, info: DetInfo) -> int:
    """Largest coordinate difference between a det and its best GT."""
    gt = scene.words[info.best].poly
    if len(gt) != len(info.det.poly):
        return 999
    return max(
        max(abs(a - c), abs(b - d)) for (a, b), (c, d) in zip(gt, info.det.poly, strict=True)
    )


def case_errors(scene: Scene, name: str, infos: list[DetInfo]) -> list[str]:
    """Check that every deliberately built case has the intended geometry."""
    rules: dict[str, Callable[[DetInfo], bool]] = {
        "near_fail": lambda i: 0.46 <= i.iou <= 0.495,
        "near_pass": lambda i: 0.505 <= i.iou <= 0.54,
        "crop": lambda i: 0.6 <= i.iou <= 0.8 and dict(i.covers)[i.best] < 0.8,
        "swallow": lambda i: i.iou >= 0.5 and len(i.covers) >= 2,
        "merge": lambda i: sum(f > 0.9 for _, f in i.covers) >= 2,
        "multiline": lambda i: sum(f > 0.9 for _, f in i.covers) >= 2,
        "fp": lambda i: i.best == -1,
        "dontcare": lambda i: i.dc_frac > 0.5,
        "rotated": lambda i: i.iou >= 0.8 and rotated_gt(scene, i.best),
        "rotated_aabb": lambda i: rotated_gt(scene, i.best),
        "": lambda i: i.iou < 0.85 or max_offset(scene, i) <= 2,
        "curved_poly": lambda i: i.iou >= 0.7 and len(i.det.poly) > 4,
    }
    errors = []
    for info in infos:
        rule = rules.get(info.det.case)
        if rule is not None and not rule(info):
            errors.append(
                f"img_{scene.n} {name} box {info.idx}: {info.det.case} fails (IoU {info.iou:.3f})"
            )
    return errors


def check_cases(scenes: list[Scene]) -> list[str]:
    errors = []
    for s in scenes:
        if not 3 <= len(s.words) <= 15:
            errors.append(f"img_{s.n}: {len(s.words)} GT boxes")
        for name, dets in (("det_a", s.det_a), ("det_b", s.det_b)):
            errors += case_errors(s, name, analyse(s, dets))
            for d in dets:
                if "," in d.text or not 0.30 <= d.conf <= 0.99:
                    errors.append(f"img_{s.n} {name}: bad text/conf {d.text!r} {d.conf}")
    index = case_index(scenes)
    print("\nWhere each evaluation case is shown:")
    for key, where in index.items():
        print(f"- {CASE_TITLES[key]}:")
        print("\n".join(f"    {w}" for w in where) or "    (none)")
        if not where and key not in ("loose",):
            errors.append(f"case {key} is not shown anywhere")
    return errors


def file_hashes(folder: Path, pattern: str) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob(pattern))
    }


def check_files(out: Path) -> list[str]:
    """Folder size, and a second run into a temp dir giving identical files."""
    errors = []
    total = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    print(f"\nTotal size of {out}: {total / 1024:.0f} KiB ({total} bytes)")
    if total >= MAX_BYTES:
        errors.append(f"demo folder is {total} bytes (>= 2 MB)")
    with tempfile.TemporaryDirectory() as tmp:
        write_dataset(Path(tmp), build_scenes())
        for pattern in ("*.txt", "*.md", "*.jpg"):
            first, second = file_hashes(out, pattern), file_hashes(Path(tmp), pattern)
            same = first == second
            print(
                f"second run, {pattern}: {len(second)} files, "
                f"{'identical sha256' if same else 'DIFFERENT'}"
            )
            if not same and pattern != "*.jpg":
                errors.append(f"second run differs for {pattern}")
    return errors


def self_check(scenes: list[Scene], out: Path) -> int:
    print_detections(scenes)
    errors = check_polygons(scenes) + check_cases(scenes) + check_files(out)
    print("\nSelf-check:", "OK" if not errors else f"{len(errors)} problem(s)")
    for e in errors:
        print("  -", e)
    return 1 if errors else 0
