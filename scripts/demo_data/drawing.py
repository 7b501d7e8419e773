"""Background drawing helpers (gradients, noise, panels, speckle, bricks) and colours."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from .config import RGB, FPt, Poly

WHITE: RGB = (250, 250, 245)
DARK: RGB = (30, 30, 35)
SHADOW: RGB = (20, 20, 20)


def gradient(size: tuple[int, int], top: RGB, bottom: RGB) -> Image.Image:
    w, h = size
    t = np.linspace(0.0, 1.0, h)[:, None, None]
    rows = np.array(top)[None, None, :] * (1 - t) + np.array(bottom)[None, None, :] * t
    arr = np.broadcast_to(rows, (h, w, 3)).astype(np.uint8)
    return Image.fromarray(arr, "RGB").convert("RGBA")


def add_noise(img: Image.Image, nrng: np.random.Generator, sigma: float) -> Image.Image:
    arr = np.asarray(img.convert("RGB")).astype(np.float32)
    arr += nrng.normal(0.0, sigma, arr.shape[:2])[:, :, None]
    return Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8), "RGB").convert("RGBA")


def fill_poly(
    img: Image.Image, poly: list[FPt] | Poly, fill: RGB, outline: RGB | None = None, width: int = 0
) -> None:
    d = ImageDraw.Draw(img)
    d.polygon([tuple(p) for p in poly], fill=fill, outline=outline, width=width)


def panel(
    img: Image.Image,
    box: tuple[int, int, int, int],
    fill: RGB,
    outline: RGB | None = None,
    width: int = 0,
    radius: int = 8,
) -> None:
    ImageDraw.Draw(img).rounded_rectangle(
        box, radius=radius, fill=fill, outline=outline, width=width
    )


def speckle(
    img: Image.Image,
    nrng: np.random.Generator,
    box: tuple[int, int, int, int],
    colors: list[RGB],
    count: int,
    size: int = 3,
) -> None:
    """Random dots (texture that a detector may take for text)."""
    d = ImageDraw.Draw(img)
    x0, y0, x1, y1 = box
    for _ in range(count):
        x, y = int(nrng.integers(x0, x1)), int(nrng.integers(y0, y1))
        c = colors[int(nrng.integers(0, len(colors)))]
        r = int(nrng.integers(1, size + 1))
        d.ellipse((x - r, y - r, x + r, y + r), fill=c)


def bricks(
    img: Image.Image,
    nrng: np.random.Generator,
    box: tuple[int, int, int, int],
    base: RGB,
    bw: int = 64,
    bh: int = 26,
) -> None:
    d = ImageDraw.Draw(img)
    x0, y0, x1, y1 = box
    d.rectangle(box, fill=(170, 165, 155))
    for row, y in enumerate(range(y0, y1, bh)):
        off = -(bw // 2) * (row % 2)
        for x in range(x0 + off, x1, bw):
            k = int(nrng.integers(-22, 23))
            c = tuple(max(0, min(255, v + k)) for v in base)
            d.rectangle((x + 2, y + 2, x + bw - 2, y + bh - 2), fill=c)
