"""Generated data sets for ``bench_scale.py`` (seeded, deterministic; written once, reused).

- ``dense(words)``: 20,000 GT words in ``20000 / words`` images of ``words`` words each, the
  layout of ``../shared/data/dense`` (its README): lines of ceil(sqrt(W)) words, heights
  18..32 px, rectangles rotated by up to 3 degrees, 5 % don't care; detections: 5 % missed,
  5 % merged with the right neighbour, 10 % split in two, the rest jittered copies, plus
  round(0.05 W) false positives. Used for the 250-word set that the shared folder lacks.
- ``as_ltrb(src)``: the same set with every box replaced by its bounding box, written as
  ``xmin,ymin,xmax,ymax`` (DetEval reads axis-aligned boxes only).
- ``textocr(images)``: a TextOCR-size set: ``images`` images of mixed densities (76 % with
  4..30 words, 21 % with 30..110, 3 % with 200..700, so about 1 % over 500), about 41
  words per image on average (25,000 images: about 1,000,000 GT words), with detections
  made as above (jitter keeps each box a rotated rectangle, so every quad stays convex and
  clockwise).
- ``fixed(images, words)``: ``images`` images of ``words`` GT words each (``bench_memory.py``).

Files are written in ICDAR 2015 form (``gt_img_N.txt`` / ``res_img_N.txt`` in ``gt.zip`` /
``det.zip``) under ``$DETLENS_BENCH_DATA`` (default: ``<tmp>/detlens-bench``).
"""

from __future__ import annotations

import io
import os
import tempfile
import zipfile
from pathlib import Path

import numpy as np

CACHE = Path(os.environ.get("DETLENS_BENCH_DATA", Path(tempfile.gettempdir()) / "detlens-bench"))
TOTAL_WORDS = 20_000


Arr = np.ndarray


def _rect(cx: Arr, cy: Arr, w: Arr, h: Arr, a: Arr) -> Arr:
    """(n, 8) integer corners TL, TR, BR, BL of rectangles rotated by ``a`` (radians)."""
    c, s = np.cos(a), np.sin(a)
    dx = np.array([-0.5, 0.5, 0.5, -0.5])[None, :] * w[:, None]
    dy = np.array([-0.5, -0.5, 0.5, 0.5])[None, :] * h[:, None]
    x = cx[:, None] + dx * c[:, None] - dy * s[:, None]
    y = cy[:, None] + dx * s[:, None] + dy * c[:, None]
    out = np.empty((len(cx), 8), dtype=np.int64)
    out[:, 0::2] = np.rint(x)
    out[:, 1::2] = np.rint(y)
    return np.maximum(out, 0)


def _page(rng: np.random.Generator, words: int) -> tuple[np.ndarray, ...]:
    """GT rectangles (cx, cy, w, h, angle) of one image in lines, and don't-care flags."""
    per_line = int(np.ceil(np.sqrt(words)))
    line = np.arange(words) // per_line
    n_lines = int(line[-1]) + 1
    base = rng.integers(18, 33, n_lines).astype(float)
    h = base[line] + rng.integers(-2, 3, words)
    letters = rng.integers(3, 11, words)
    w = letters * h * rng.uniform(0.45, 0.65, words)
    gap = rng.uniform(0.4, 0.9, words) * h + 4
    x0 = np.zeros(words)
    for k in range(n_lines):
        idx = np.flatnonzero(line == k)
        widths = w[idx] + gap[idx]
        x0[idx] = 20 + np.concatenate(([0.0], np.cumsum(widths)[:-1]))
    line_h = base * 1.0 + rng.uniform(0.3, 0.8, n_lines) * base + 6
    y0 = 20 + np.concatenate(([0.0], np.cumsum(line_h)[:-1]))
    cx = x0 + w / 2
    cy = y0[line] + base[line] / 2
    a = np.radians(rng.uniform(-3, 3, words))
    dc = rng.random(words) < 0.05
    return cx, cy, w, h, a, dc


def _dets(rng: np.random.Generator, page: tuple[np.ndarray, ...], fps: int) -> np.ndarray:
    """Detections: missed 5 %, merged with the right neighbour 5 %, split 10 %, else jitter;
    then ``fps`` false positives; shuffled."""
    cx, cy, w, h, a, _ = page
    n = len(cx)
    r = rng.random(n)
    keep = r >= 0.05
    merge = (r >= 0.05) & (r < 0.10)
    merge[-1] = False
    keep[1:] &= ~merge[:-1]  # the merged neighbour gets no detection of its own
    split = (r >= 0.10) & (r < 0.20) & keep & ~merge
    plain = keep & ~merge & ~split
    parts = []
    k = np.flatnonzero(plain)
    parts.append((cx[k], cy[k], w[k], h[k], a[k]))
    k = np.flatnonzero(merge)
    right = cx[k + 1] + w[k + 1] / 2
    left = cx[k] - w[k] / 2
    parts.append(((left + right) / 2, cy[k], right - left, h[k], a[k]))
    k = np.flatnonzero(split)
    f = rng.uniform(0.35, 0.65, len(k))
    left = cx[k] - w[k] / 2
    parts.append((left + f * w[k] / 2, cy[k], f * w[k], h[k], a[k]))
    parts.append((left + f * w[k] + (1 - f) * w[k] / 2, cy[k], (1 - f) * w[k], h[k], a[k]))
    if fps:
        fh = rng.integers(16, 33, fps).astype(float)
        parts.append(
            (
                rng.uniform(cx.min(), cx.max(), fps),
                rng.uniform(cy.min(), cy.max(), fps),
                fh * rng.uniform(1.5, 8, fps),
                fh,
                np.radians(rng.uniform(-10, 10, fps)),
            )
        )
    dcx, dcy, dw, dh, da = (np.concatenate(v) for v in zip(*parts, strict=True))
    m = len(dcx)
    jit = 0.08 * dh
    dcx = dcx + rng.uniform(-1, 1, m) * jit
    dcy = dcy + rng.uniform(-1, 1, m) * jit
    dw = dw * rng.uniform(0.95, 1.05, m)
    dh = dh * rng.uniform(0.92, 1.08, m)
    out = _rect(dcx, dcy, np.maximum(dw, 4), np.maximum(dh, 4), da)
    return out[rng.permutation(m)]


def _text(rng: np.random.Generator, boxes: np.ndarray, dc: np.ndarray | None) -> str:
    rows = [",".join(map(str, b)) for b in boxes.tolist()]
    if dc is None:
        return "\n".join(rows) + "\n"
    letters = np.frombuffer(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", np.uint8)
    words = [
        "###" if d else letters[rng.integers(0, 52, int(rng.integers(3, 11)))].tobytes().decode()
        for d in dc.tolist()
    ]
    return "\n".join(f"{r},{t}" for r, t in zip(rows, words, strict=True)) + "\n"


def _write(folder: Path, pages: list[tuple[str, str]]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, prefix, col in (("gt.zip", "gt_img_", 0), ("det.zip", "res_img_", 1)):
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
            for k, texts in enumerate(pages, 1):
                z.writestr(f"{prefix}{k}.txt", texts[col])
        tmp = folder / f".{name}.tmp"
        tmp.write_bytes(buf.getvalue())
        tmp.replace(folder / name)


def _image(rng: np.random.Generator, words: int, fps: int) -> tuple[str, str]:
    page = _page(rng, words)
    gt = _rect(*page[:5])
    return _text(rng, gt, page[5]), _text(rng, _dets(rng, page, fps), None)


def dense(words: int) -> Path:
    """The ``words``-per-image set of 20,000 GT words (generated on first use)."""
    folder = CACHE / f"dense-W{words}"
    if not (folder / "det.zip").exists():
        images = TOTAL_WORDS // words
        pages = [
            _image(np.random.default_rng((0, words, k)), words, round(0.05 * words))
            for k in range(images)
        ]
        _write(folder, pages)
    return folder


def as_ltrb(src: Path, name: str) -> Path:
    """``src``'s GT and detections as bounding boxes in LTRB form (for DetEval)."""
    folder = CACHE / f"{name}-ltrb"
    if (folder / "det.zip").exists():
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    for zname in ("gt.zip", "det.zip"):
        buf = io.BytesIO()
        with zipfile.ZipFile(src / zname) as zin, zipfile.ZipFile(buf, "w") as zout:
            for member in zin.namelist():
                out = []
                for line in zin.read(member).decode().splitlines():
                    f = line.split(",")
                    xs, ys = list(map(int, f[0:8:2])), list(map(int, f[1:8:2]))
                    box = f"{min(xs)},{min(ys)},{max(xs)},{max(ys)}"
                    out.append(box + ("," + ",".join(f[8:]) if len(f) > 8 else ""))
                zout.writestr(member, "\n".join(out) + "\n")
        (folder / zname).write_bytes(buf.getvalue())
    return folder


def textocr(images: int) -> Path:
    """The TextOCR-size set of ``images`` images (generated on first use)."""
    folder = CACHE / f"textocr-{images}"
    if not (folder / "det.zip").exists():
        rng = np.random.default_rng(11)
        kind = rng.random(images)
        words = np.where(
            kind < 0.76,
            rng.integers(4, 31, images),
            np.where(kind < 0.97, rng.integers(30, 111, images), rng.integers(200, 701, images)),
        )
        pages = [
            _image(np.random.default_rng((11, k)), int(w), max(1, round(0.05 * w)))
            for k, w in enumerate(words.tolist())
        ]
        _write(folder, pages)
    return folder


def fixed(images: int, words: int) -> Path:
    """``images`` images of ``words`` GT words each and about as many detections (the
    dense layout; ``bench_memory.py``), generated on first use."""
    folder = CACHE / f"fixed-{images}x{words}"
    if not (folder / "det.zip").exists():
        pages = [
            _image(np.random.default_rng((13, words, k)), words, max(1, round(0.05 * words)))
            for k in range(images)
        ]
        _write(folder, pages)
    return folder


def counts(folder: Path) -> tuple[int, int, int, int]:
    """Images, GT words, detections, and images with more than 500 GT words."""
    n_gt = n_det = big = 0
    with zipfile.ZipFile(folder / "gt.zip") as z:
        names = z.namelist()
        for m in names:
            k = z.read(m).count(b"\n")
            n_gt += k
            big += k > 500
    with zipfile.ZipFile(folder / "det.zip") as z:
        n_det = sum(z.read(m).count(b"\n") for m in z.namelist())
    return len(names), n_gt, n_det, big
