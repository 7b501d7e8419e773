"""Building all scenes and writing the images, GT/detection files and README."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import numpy as np
from PIL import Image

from .config import JPEG_QUALITY, SEED, Poly
from .model import Det, Scene
from .readme import readme_text
from .scenes_1_6 import scene_1, scene_2, scene_3, scene_4, scene_5, scene_6
from .scenes_7_12 import scene_7, scene_8, scene_9, scene_10, scene_11, scene_12
from .text import render_word

SCENES: list[Callable[[random.Random], Scene]] = [
    scene_1,
    scene_2,
    scene_3,
    scene_4,
    scene_5,
    scene_6,
    scene_7,
    scene_8,
    scene_9,
    scene_10,
    scene_11,
    scene_12,
]


def build_scenes() -> list[Scene]:
    rng = random.Random(SEED)
    return [make(rng) for make in SCENES]


def fmt_poly(poly: Poly) -> str:
    return ",".join(f"{x},{y}" for x, y in poly)


def gt_text(scene: Scene) -> str:
    return "".join(f"{fmt_poly(w.poly)},{w.label}\n" for w in scene.words)


def det_text(dets: list[Det]) -> str:
    return "".join(f"{fmt_poly(d.poly)},{d.conf:.2f},{d.text}\n" for d in dets)


def render(scene: Scene, nrng: np.random.Generator) -> Image.Image:
    img = scene.paint(scene.size, nrng)
    for w in scene.words:
        render_word(img, w)
    return img.convert("RGB")


def write_dataset(out: Path, scenes: list[Scene]) -> None:
    for sub in ("images", "gt", "det_a", "det_b"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    nrng = np.random.default_rng(SEED)
    for s in scenes:
        name = f"img_{s.n}"
        render(s, nrng).save(out / "images" / f"{name}.jpg", quality=JPEG_QUALITY, optimize=True)
        (out / "gt" / f"gt_{name}.txt").write_bytes(gt_text(s).encode("utf-8"))
        for det_dir, dets in (("det_a", s.det_a), ("det_b", s.det_b)):
            data = det_text(dets).encode("utf-8")
            (out / det_dir / f"res_{name}.txt").write_bytes(data)
    (out / "README.md").write_bytes(readme_text(scenes).encode("utf-8"))
