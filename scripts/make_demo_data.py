"""Generate the bundled detlens demo dataset into ``resources/demo/``.

What it writes (12 synthetic scene-text images and their annotations):

* ``images/img_N.jpg``       N = 1..12, drawn with Pillow (JPEG quality 85)
* ``gt/gt_img_N.txt``        ICDAR-2015 ground truth, one word per line:
  ``x1,y1,...,x4,y4,TRANSCRIPTION`` (integer coordinates, clockwise in image
  coordinates starting at the word's top-left corner; one curved word uses
  a 14-point polygon; ``###`` marks don't-care regions)
* ``det_a/res_img_N.txt``    detector "a" (decent): ``coords,CONF,TEXT``
* ``det_b/res_img_N.txt``    detector "b" (weaker, fails differently)
* ``README.md``              which evaluation case each image demonstrates

All coordinates come from the layout numbers chosen in this script (word
position, size, angle), never from font metrics, and every random choice uses
a fixed seed, so the .txt files are byte-identical on any machine. The text is
rendered with DejaVu fonts when they exist (else Pillow's default font) and
stretched to fill its layout box, so only the pixels depend on the fonts.

Re-run from the repository root::

    python scripts/make_demo_data.py            # regenerate resources/demo/
    python scripts/make_demo_data.py --check    # regenerate + print self-check

``--check`` needs shapely >= 2 (used only for the self-check): it prints the
best GT and IoU of every detection, where each evaluation case is shown,
verifies polygon validity and orientation, the near-miss IoU ranges, the
folder size (< 2 MB) and that a second run gives identical .txt files.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import random
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "resources" / "demo"
FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
SEED = 1234
JPEG_QUALITY = 85
MAX_BYTES = 2 * 1024 * 1024

Pt = tuple[int, int]
FPt = tuple[float, float]
Poly = list[Pt]
RGB = tuple[int, int, int]

# --------------------------------------------------------------------------
# Geometry (pure Python: used to build the files and the README numbers)
# --------------------------------------------------------------------------


def rnd(v: float) -> int:
    """Round half up (independent of banker's rounding)."""
    return math.floor(v + 0.5)


@dataclass(frozen=True)
class Frame:
    """A word box: centre, size and angle (degrees, counter-clockwise)."""

    cx: float
    cy: float
    w: float
    h: float
    angle: float = 0.0

    def point(self, u: float, v: float) -> FPt:
        """Image point at relative position (u, v) in [0, 1] of the box."""
        lx, ly = (u - 0.5) * self.w, (v - 0.5) * self.h
        a = math.radians(self.angle)
        c, s = math.cos(a), math.sin(a)
        return self.cx + lx * c + ly * s, self.cy - lx * s + ly * c

    def quad(self, u0: float = 0, u1: float = 1, v0: float = 0, v1: float = 1) -> Poly:
        """Integer TL, TR, BR, BL corners of a sub-box (clockwise)."""
        pts = [self.point(u0, v0), self.point(u1, v0)]
        pts += [self.point(u1, v1), self.point(u0, v1)]
        return [(rnd(x), rnd(y)) for x, y in pts]


def box_frame(x: int, y: int, w: int, h: int) -> Frame:
    return Frame(x + w / 2, y + h / 2, w, h)


@dataclass(frozen=True)
class Arc:
    """Text along a circular arc; angles in degrees from 12 o'clock."""

    cx: float
    cy: float
    r: float
    h: float
    a0: float
    a1: float

    def point(self, t: float, v: float) -> FPt:
        phi = math.radians(self.a0 + t * (self.a1 - self.a0))
        rho = self.r + self.h / 2 - v * self.h
        return self.cx + rho * math.sin(phi), self.cy - rho * math.cos(phi)

    def polygon(self, k: int = 7) -> Poly:
        """Top edge left->right, bottom edge right->left (2k points)."""
        ts = [i / (k - 1) for i in range(k)]
        pts = [self.point(t, 0) for t in ts] + [self.point(t, 1) for t in ts[::-1]]
        return [(rnd(x), rnd(y)) for x, y in pts]


def signed_area(poly: list[FPt] | Poly) -> float:
    """Shoelace area; > 0 means clockwise on screen (y axis down)."""
    n = len(poly)
    s = sum(poly[i][0] * poly[(i + 1) % n][1] - poly[(i + 1) % n][0] * poly[i][1] for i in range(n))
    return s / 2


def convex_parts(poly: Poly) -> list[Poly]:
    """Quads are convex; a 2k-point band polygon splits into k-1 quads."""
    if len(poly) == 4:
        return [poly]
    k = len(poly) // 2
    top, bottom = poly[:k], poly[k:][::-1]
    return [[top[i], top[i + 1], bottom[i + 1], bottom[i]] for i in range(k - 1)]


def _cut(p: FPt, q: FPt, a: FPt, b: FPt) -> FPt:
    dx, dy = q[0] - p[0], q[1] - p[1]
    ex, ey = b[0] - a[0], b[1] - a[1]
    t = (ex * (p[1] - a[1]) - ey * (p[0] - a[0])) / (ey * dx - ex * dy)
    return p[0] + t * dx, p[1] + t * dy


def clip_convex(subject: list[FPt], clipper: list[FPt]) -> list[FPt]:
    """Sutherland-Hodgman clipping of subject by a convex clockwise polygon."""
    out = list(subject)
    for i, a in enumerate(clipper):
        b = clipper[(i + 1) % len(clipper)]

        def inside(p: FPt, a: FPt = a, b: FPt = b) -> bool:
            return (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) >= 0

        src, out = out, []
        for j, p in enumerate(src):
            q = src[(j + 1) % len(src)]
            if inside(q):
                if not inside(p):
                    out.append(_cut(p, q, a, b))
                out.append(q)
            elif inside(p):
                out.append(_cut(p, q, a, b))
        if not out:
            return []
    return out


def inter_area(a: Poly, b: Poly) -> float:
    total = 0.0
    for pa in convex_parts(a):
        for pb in convex_parts(b):
            piece = clip_convex([(float(x), float(y)) for x, y in pa], pb)
            total += abs(signed_area(piece)) if len(piece) > 2 else 0.0
    return total


def iou(a: Poly, b: Poly) -> float:
    i = inter_area(a, b)
    return i / (abs(signed_area(a)) + abs(signed_area(b)) - i)


def bbox_quad(polys: list[Poly], pad: int = 0) -> Poly:
    xs = [x for p in polys for x, _ in p]
    ys = [y for p in polys for _, y in p]
    x0, y0, x1, y1 = min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


# --------------------------------------------------------------------------
# Scene model
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Style:
    font: str
    color: RGB
    shadow: RGB | None = None


@dataclass
class Word:
    text: str
    style: Style
    frame: Frame | None = None
    arc: Arc | None = None
    kind: str = "text"  # text | vertical | arc | blur

    @property
    def label(self) -> str:
        return "###" if self.kind == "blur" else self.text

    @property
    def poly(self) -> Poly:
        if self.arc is not None:
            return self.arc.polygon()
        assert self.frame is not None
        return self.frame.quad()


@dataclass
class Det:
    poly: Poly
    conf: float
    text: str
    case: str = ""


@dataclass
class Scene:
    n: int
    size: tuple[int, int]
    shows: str
    paint: Callable[[tuple[int, int], np.random.Generator], Image.Image]
    words: list[Word]
    det_a: list[Det] = field(default_factory=list)
    det_b: list[Det] = field(default_factory=list)


def word(text: str, x: int, y: int, w: int, h: int, style: Style) -> Word:
    return Word(text, style, frame=box_frame(x, y, w, h))


def rword(text: str, f: Frame, style: Style) -> Word:
    return Word(text, style, frame=f)


def along(f: Frame, offset: float, w: float, h: float) -> Frame:
    """Frame of size w x h centred `offset` px along f's baseline direction."""
    a = math.radians(f.angle)
    return Frame(f.cx + offset * math.cos(a), f.cy - offset * math.sin(a), w, h, f.angle)


# --------------------------------------------------------------------------
# Detection builders (all driven by the seeded layout RNG)
# --------------------------------------------------------------------------


def conf(rng: random.Random, lo: float, hi: float) -> float:
    return min(0.99, max(0.30, round(rng.uniform(lo, hi), 2)))


def jitter(poly: Poly, rng: random.Random, j: int) -> Poly:
    return [(x + rng.randint(-j, j), y + rng.randint(-j, j)) for x, y in poly]


def hit(
    w: Word,
    rng: random.Random,
    text: str | None = None,
    j: int = 1,
    lo: float = 0.85,
    case: str = "",
) -> Det:
    """Exact hit (within j px per coordinate)."""
    poly = jitter(w.poly, rng, j) if j else list(w.poly)
    return Det(poly, conf(rng, lo, 0.99), w.text if text is None else text, case)


def part(w: Word, rng: random.Random, u0: float, u1: float, text: str, case: str) -> Det:
    """Detection of the fraction [u0, u1] of a word's width."""
    assert w.frame is not None
    return Det(w.frame.quad(u0, u1), conf(rng, 0.55, 0.85), text, case)


def span(words: list[Word], rng: random.Random, text: str, case: str, pad: int = 2) -> Det:
    """Axis-aligned box around several words (merges, loose boxes)."""
    return Det(bbox_quad([w.poly for w in words], pad), conf(rng, 0.5, 0.8), text, case)


def swallow(w: Word, nxt: Word, frac: float, rng: random.Random, text: str) -> Det:
    """Box around word w plus the first `frac` of the next word on its line."""
    assert nxt.frame is not None
    poly = bbox_quad([w.poly, nxt.frame.quad(0, frac)], 2)
    return Det(poly, conf(rng, 0.6, 0.8), text, "swallow")


def false_pos(x: int, y: int, w: int, h: int, rng: random.Random, text: str) -> Det:
    return Det(box_frame(x, y, w, h).quad(), conf(rng, 0.30, 0.55), text, "fp")


def tuned(w: Word, rng: random.Random, target: float, case: str) -> Det:
    """Near miss: grow (target > 0.5) or shift the box to hit a target IoU."""
    assert w.frame is not None
    f, gt = w.frame, w.poly

    def cand(k: int) -> Poly:
        if target > 0.5:
            return Frame(f.cx, f.cy, f.w + 2 * k, f.h + 2 * k).quad()
        return Frame(f.cx + k, f.cy + k // 3, f.w, f.h).quad()

    best = min(range(1, int(f.w)), key=lambda k: abs(iou(gt, cand(k)) - target))
    return Det(cand(best), conf(rng, 0.6, 0.9), w.text, case)


# --------------------------------------------------------------------------
# Painting helpers
# --------------------------------------------------------------------------

SANS_B = "DejaVuSans-Bold.ttf"
SANS = "DejaVuSans.ttf"
COND_B = "DejaVuSansCondensed-Bold.ttf"
SERIF_B = "DejaVuSerif-Bold.ttf"
SERIF_I = "DejaVuSerif-BoldItalic.ttf"
MONO_B = "DejaVuSansMono-Bold.ttf"
OBLIQUE = "DejaVuSans-BoldOblique.ttf"

_FONTS: dict[tuple[str, int], ImageFont.FreeTypeFont | ImageFont.ImageFont] = {}


def load_font(name: str, size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    key = (name, size)
    if key not in _FONTS:
        path = FONT_DIR / name
        if path.exists():
            _FONTS[key] = ImageFont.truetype(str(path), size)
        else:
            _FONTS[key] = ImageFont.load_default(size=size)
    return _FONTS[key]


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


def ink(text: str, font: str) -> Image.Image:
    """L-mode mask of `text` cropped to its ink, rendered large."""
    f = load_font(font, 96)
    x0, y0, x1, y1 = ImageDraw.Draw(Image.new("L", (1, 1))).textbbox((0, 0), text, font=f)
    tile = Image.new("L", (x1 - x0 + 8, y1 - y0 + 8), 0)
    ImageDraw.Draw(tile).text((4 - x0, 4 - y0), text, fill=255, font=f)
    return tile.crop(tile.getbbox() or (0, 0, tile.width, tile.height))


def text_mask(text: str, font: str, size: tuple[int, int]) -> Image.Image:
    """Ink of `text` stretched to exactly `size` (the layout box)."""
    return ink(text, font).resize(size, Image.Resampling.LANCZOS)


def char_mask(ch: str, font: str, w: float, h: float) -> Image.Image:
    """One character, height h, width at most w and at most 1.3x its natural
    width (so narrow letters such as I do not turn into blocks)."""
    m = ink(ch, font)
    width = min(w, 1.3 * m.width * h / m.height)
    return m.resize((max(1, rnd(width)), rnd(h)), Image.Resampling.LANCZOS)


def tile_rgba(mask: Image.Image, style: Style) -> Image.Image:
    """Coloured RGBA tile from a mask, with an optional drop shadow."""
    out = Image.new("RGBA", (mask.width + 3, mask.height + 3), (0, 0, 0, 0))
    if style.shadow is not None:
        sh = Image.new("RGBA", mask.size, (*style.shadow, 255))
        out.paste(sh, (3, 3), mask)
    out.paste(Image.new("RGBA", mask.size, (*style.color, 255)), (0, 0), mask)
    return out


def paste_centered(img: Image.Image, tile: Image.Image, cx: float, cy: float, angle: float) -> None:
    """Rotate an RGBA tile (about its text centre) and composite it."""
    # the tile carries a 3 px shadow margin right/bottom: pad left/top to match
    padded = Image.new("RGBA", (tile.width + 3, tile.height + 3), (0, 0, 0, 0))
    padded.paste(tile, (3, 3))
    rot = padded.rotate(angle, resample=Image.Resampling.BICUBIC, expand=True)
    img.alpha_composite(rot, (rnd(cx - rot.width / 2), rnd(cy - rot.height / 2)))


def draw_text_word(img: Image.Image, w: Word) -> None:
    f = w.frame
    assert f is not None
    mask = text_mask(w.text, w.style.font, (rnd(f.w), rnd(f.h)))
    paste_centered(img, tile_rgba(mask, w.style), f.cx, f.cy, f.angle)


def draw_vertical_word(img: Image.Image, w: Word) -> None:
    """Letters stacked top-to-bottom inside the word box."""
    f = w.frame
    assert f is not None
    n, gap = len(w.text), 6
    lh = (f.h - gap * (n - 1)) / n
    for i, ch in enumerate(w.text):
        cy = f.cy - f.h / 2 + i * (lh + gap) + lh / 2
        mask = char_mask(ch, w.style.font, f.w, lh)
        paste_centered(img, tile_rgba(mask, w.style), f.cx, cy, 0.0)


def draw_arc_word(img: Image.Image, w: Word) -> None:
    """Characters placed along the arc, each rotated to the tangent."""
    a = w.arc
    assert a is not None
    n = len(w.text)
    step = (a.a1 - a.a0) / n
    cw = a.r * math.radians(step) * 0.92
    for i, ch in enumerate(w.text):
        t = (i + 0.5) / n
        cx, cy = a.point(t, 0.5)
        mask = char_mask(ch, w.style.font, cw, a.h)
        paste_centered(img, tile_rgba(mask, w.style), cx, cy, -(a.a0 + t * (a.a1 - a.a0)))


def draw_blur_word(img: Image.Image, w: Word) -> None:
    """Rows of small words inside the box, then blurred beyond legibility."""
    f = w.frame
    assert f is not None
    x0, y0 = rnd(f.cx - f.w / 2), rnd(f.cy - f.h / 2)
    rows = w.text.split("/")
    rh = f.h / len(rows)
    for i, row in enumerate(rows):
        sub = box_frame(x0, rnd(y0 + i * rh + rh * 0.15), rnd(f.w * 0.95), rnd(rh * 0.7))
        draw_text_word(img, Word(row, w.style, frame=sub))
    region = (x0, y0, x0 + rnd(f.w), y0 + rnd(f.h))
    img.paste(img.crop(region).filter(ImageFilter.GaussianBlur(rh * 0.2)), region[:2])


def render_word(img: Image.Image, w: Word) -> None:
    {
        "text": draw_text_word,
        "vertical": draw_vertical_word,
        "arc": draw_arc_word,
        "blur": draw_blur_word,
    }[w.kind](img, w)


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


# --------------------------------------------------------------------------
# Scenes: painters (pixels only) and layouts + detections (the .txt files)
# --------------------------------------------------------------------------

WHITE: RGB = (250, 250, 245)
DARK: RGB = (30, 30, 35)
SHADOW: RGB = (20, 20, 20)


def paint_1(size: tuple[int, int], nrng: np.random.Generator) -> Image.Image:
    img = gradient(size, (236, 222, 196), (196, 176, 146))
    d = ImageDraw.Draw(img)
    for i, x in enumerate(range(0, size[0], 50)):
        fill = (185, 40, 45) if i % 2 == 0 else (245, 240, 235)
        d.rectangle((x, 0, x + 50, 80), fill=fill)
        d.ellipse((x, 62, x + 50, 98), fill=fill)
    panel(img, (200, 105, 600, 205), (90, 55, 30), (60, 35, 20), 5, 12)
    for box in ((40, 240, 370, 410), (430, 240, 760, 410)):
        panel(img, box, (120, 150, 170), (55, 55, 60), 7, 4)
        d.line((box[0] + 30, box[3] - 10, box[0] + 120, box[1] + 10), (170, 195, 210), 4)
    d.rectangle((0, 540, size[0], size[1]), fill=(120, 118, 115))
    panel(img, (300, 430, 500, 580), (40, 70, 52), (120, 85, 45), 8, 3)
    return add_noise(img, nrng, 3)


def scene_1(rng: random.Random) -> Scene:
    cream, chalk = Style(SERIF_I, (245, 225, 170), SHADOW), Style(SANS, (235, 235, 225))
    glass = Style(SANS_B, WHITE, (40, 60, 80))
    ws = [
        word("Coffee", 260, 120, 280, 70, cream),
        word("FRESH", 90, 268, 200, 52, glass),
        word("BAKERY", 468, 268, 250, 52, glass),
        word("pastries", 100, 345, 140, 26, Style(SANS, WHITE)),
        word("sandwiches", 490, 345, 170, 26, Style(SANS, WHITE)),
        word("Latte", 345, 450, 110, 36, chalk),
        word("Mocha", 345, 505, 110, 36, chalk),
    ]
    a = [hit(ws[0], rng, "COFFEE", case="case_only")] + [hit(w, rng) for w in ws[1:4]]
    a += [hit(ws[4], rng, "sandwichcs"), hit(ws[5], rng), hit(ws[6], rng)]
    b = [span([ws[0]], rng, "Coffee", "loose", 6), hit(ws[1], rng, j=2, lo=0.6)]
    b += [hit(ws[2], rng, "BAKFRY", 2, 0.6), hit(ws[5], rng, "Latte", 2, 0.6)]
    b += [hit(ws[6], rng, "Mocha", 2, 0.6)]
    return Scene(
        1,
        size=(800, 600),
        paint=paint_1,
        words=ws,
        det_a=a,
        det_b=b,
        shows="Cafe front: serif sign, window lettering, chalkboard, small text",
    )


def paint_2(size: tuple[int, int], nrng: np.random.Generator) -> Image.Image:
    img = gradient(size, (110, 165, 230), (205, 225, 245))
    d = ImageDraw.Draw(img)
    for x, h in ((0, 200), (120, 150), (600, 230), (700, 170)):
        d.rectangle((x, size[1] - h, x + 110, size[1]), fill=(95, 100, 110))
    d.rectangle((0, 540, size[0], size[1]), fill=(80, 80, 85))
    d.rectangle((284, 190, 296, 560), fill=(110, 110, 115))
    d.rectangle((554, 400, 566, 560), fill=(110, 110, 115))
    plate1, plate2 = Frame(290, 190, 390, 90, 12), Frame(560, 400, 300, 80, -20)
    fill_poly(
        img,
        [plate1.point(u, v) for u, v in ((0, 0), (1, 0), (1, 1), (0, 1))],
        (20, 110, 60),
        WHITE,
        4,
    )
    fill_poly(
        img,
        [plate2.point(u, v) for u, v in ((0, 0), (1, 0), (1, 1), (0, 1))],
        (30, 70, 160),
        WHITE,
        4,
    )
    panel(img, (70, 425, 310, 505), (15, 15, 15), WHITE, 3, 4)
    return add_noise(img, nrng, 3)


def scene_2(rng: random.Random) -> Scene:
    plate1, plate2 = Frame(290, 190, 390, 90, 12), Frame(560, 400, 300, 80, -20)
    st = Style(SANS_B, WHITE)
    ws = [
        rword("ELM", along(plate1, -118, 90, 50), st),
        rword("AVENUE", along(plate1, 52, 210, 50), st),
        rword("PARKING", along(plate2, 0, 240, 50), st),
        word("ONE", 90, 445, 90, 40, st),
        word("WAY", 200, 445, 95, 40, st),
    ]
    a = [hit(ws[0], rng, j=2, case="rotated"), hit(ws[1], rng, j=2, case="rotated")]
    a += [hit(ws[2], rng, "PARKlNG", 2, case="rotated"), hit(ws[3], rng), hit(ws[4], rng)]
    b = [span([w], rng, w.text, "rotated_aabb", 1) for w in ws[:3]]
    b += [hit(ws[3], rng, j=2, lo=0.6), hit(ws[4], rng, "WAV", 2, 0.6)]
    return Scene(
        2,
        size=(800, 600),
        paint=paint_2,
        words=ws,
        det_a=a,
        det_b=b,
        shows="Street signs tilted +12 deg and -20 deg, plus a level sign",
    )


def paint_3(size: tuple[int, int], nrng: np.random.Generator) -> Image.Image:
    img = gradient(size, (225, 228, 230), (185, 188, 192))
    panel(img, (40, 50, 600, 190), (0, 135, 70), (0, 90, 45), 5, 14)
    d = ImageDraw.Draw(img)
    d.rectangle((85, 80, 115, 160), fill=WHITE)
    d.rectangle((60, 105, 140, 135), fill=WHITE)
    panel(img, (60, 235, 600, 440), (215, 235, 225), (90, 95, 100), 6, 4)
    speckle(img, nrng, (300, 380, 590, 430), [(150, 170, 160), (190, 205, 200)], 120)
    return add_noise(img, nrng, 3)


def scene_3(rng: random.Random) -> Scene:
    green, dark = Style(SANS_B, (0, 110, 55)), Style(SANS, (40, 50, 45))
    ws = [
        word("PHARMACY", 160, 85, 410, 70, Style(SANS_B, WHITE, (0, 70, 35))),
        word("Health", 90, 262, 150, 44, green),
        word("Beauty", 90, 322, 150, 44, green),
        word("Prescriptions", 330, 272, 240, 30, dark),
        word("Vitamins", 330, 325, 170, 30, dark),
    ]
    a = [tuned(ws[0], rng, 0.52, "near_pass")] + [hit(w, rng) for w in ws[1:]]
    b = [tuned(ws[0], rng, 0.48, "near_fail"), hit(ws[1], rng, "Hea1th", 2, 0.6)]
    b += [hit(ws[2], rng, j=2, lo=0.6), hit(ws[4], rng, "Vitamlns", 2, 0.5)]
    return Scene(
        3,
        size=(640, 480),
        paint=paint_3,
        words=ws,
        det_a=a,
        det_b=b,
        shows="Pharmacy sign: one big clear word for the IoU 0.5 threshold",
    )


def paint_4(size: tuple[int, int], nrng: np.random.Generator) -> Image.Image:
    img = gradient(size, (95, 45, 40), (60, 30, 28))
    panel(img, (180, 40, 844, 180), (15, 15, 15), (200, 160, 60), 4, 6)
    panel(img, (120, 200, 830, 300), (125, 82, 42), (80, 50, 25), 5, 6)
    panel(img, (90, 370, 300, 610), (45, 50, 55), (140, 100, 60), 8, 4)
    panel(img, (520, 360, 940, 620), (70, 90, 105), (30, 30, 30), 8, 2)
    d = ImageDraw.Draw(img)
    d.line((560, 600, 700, 380), (110, 130, 145), 6)
    d.rectangle((0, 680, size[0], size[1]), fill=(90, 88, 85))
    return add_noise(img, nrng, 3)


def scene_4(rng: random.Random) -> Scene:
    cream, chalk = Style(SERIF_B, (245, 230, 200), SHADOW), Style(SANS, (235, 235, 230))
    ws = [
        word("RESTAURANT", 212, 60, 600, 100, Style(SERIF_B, (230, 190, 80))),
        word("BURGER", 150, 220, 220, 60, cream),
        word("GRILL", 395, 220, 180, 60, cream),
        word("HOUSE", 600, 220, 200, 60, cream),
        word("Steak", 120, 400, 110, 30, chalk),
        word("Salad", 120, 450, 110, 30, chalk),
        word("Fries", 120, 500, 100, 30, chalk),
        word("Soup", 120, 550, 90, 30, chalk),
        word("Takeaway", 560, 430, 300, 56, Style(OBLIQUE, WHITE)),
    ]
    a = [part(ws[0], rng, 0.0, 0.70, "RESTAUR", "crop")]
    a += [hit(w, rng) for w in ws[1:]]
    b = [part(ws[0], rng, 0.0, 0.72, "RESTAURA", "crop")]
    b += [swallow(ws[1], ws[2], 0.4, rng, "BURGER GR")]
    b += [hit(ws[3], rng, j=2, lo=0.6), hit(ws[4], rng, j=2, lo=0.5)]
    b += [hit(ws[5], rng, "Sa1ad", 2, 0.5), hit(ws[8], rng, "Takeawav", 2, 0.5)]
    return Scene(
        4,
        size=(1024, 768),
        paint=paint_4,
        words=ws,
        det_a=a,
        det_b=b,
        shows="Restaurant front: big sign, a 3-word line, small menu text",
    )


def paint_5(size: tuple[int, int], nrng: np.random.Generator) -> Image.Image:
    img = gradient(size, (240, 240, 236), (210, 212, 208))
    panel(img, (50, 40, 750, 170), (200, 30, 35), (140, 20, 25), 5, 10)
    panel(img, (90, 310, 450, 420), (250, 215, 40), (200, 160, 20), 4, 18)
    ImageDraw.Draw(img).ellipse((105, 355, 117, 367), fill=(240, 240, 236))
    panel(img, (450, 320, 760, 560), (30, 120, 70), (20, 80, 45), 5, 6)
    d = ImageDraw.Draw(img)
    for y in (460, 530):
        d.rectangle((60, y, 420, y + 10), fill=(150, 150, 155))
    return add_noise(img, nrng, 3)


def scene_5(rng: random.Random) -> Scene:
    white = Style(SANS_B, WHITE)
    ws = [
        word("SUPERMARKET", 80, 60, 640, 90, Style(COND_B, WHITE, (110, 15, 20))),
        word("WELCOME", 230, 200, 340, 70, Style(SANS_B, (25, 50, 120))),
        word("DISCOUNT", 130, 330, 300, 64, Style(SANS_B, (200, 30, 35))),
        word("Fruit", 480, 340, 130, 48, white),
        word("Bread", 480, 410, 140, 48, white),
        word("Dairy", 480, 480, 130, 48, white),
    ]
    a = [hit(ws[0], rng), hit(ws[1], rng)]
    a += [part(ws[2], rng, 0.0, 0.5, "DISC", "split2")]
    a += [part(ws[2], rng, 0.51, 1.0, "OUNT", "split2")]
    a += [hit(w, rng) for w in ws[3:]]
    b = [part(ws[0], rng, 0.0, 0.36, "SUPE", "split3")]
    b += [part(ws[0], rng, 0.37, 0.68, "RMAR", "split3")]
    b += [part(ws[0], rng, 0.69, 1.0, "KET", "split3")]
    b += [part(ws[1], rng, 0.0, 0.56, "WELC", "overlap_split")]
    b += [part(ws[1], rng, 0.44, 1.0, "COME", "overlap_split")]
    b += [hit(ws[2], rng, j=2, lo=0.6), hit(ws[3], rng, j=2, lo=0.6)]
    b += [hit(ws[4], rng, "Brcad", 2, 0.5)]
    return Scene(
        5,
        size=(800, 600),
        paint=paint_5,
        words=ws,
        det_a=a,
        det_b=b,
        shows="Supermarket banner and price tag: long words that get split",
    )


def paint_6(size: tuple[int, int], nrng: np.random.Generator) -> Image.Image:
    img = gradient(size, (170, 180, 190), (120, 125, 130))
    d = ImageDraw.Draw(img)
    d.rectangle((300, 360, 318, size[1]), fill=(90, 90, 95))
    panel(img, (120, 60, 500, 360), (25, 75, 165), WHITE, 5, 10)
    panel(img, (540, 70, 700, 230), (250, 205, 40), DARK, 4, 8)
    d.rectangle((612, 230, 628, size[1]), fill=(90, 90, 95))
    d.rectangle((0, 520, size[0], size[1]), fill=(70, 70, 75))
    speckle(img, nrng, (0, 520, size[0], size[1]), [(95, 95, 100), (55, 55, 60)], 500)
    return add_noise(img, nrng, 3)


def scene_6(rng: random.Random) -> Scene:
    white, dark = Style(SANS_B, WHITE), Style(SANS_B, DARK)
    ws = [
        word("BUS", 150, 80, 130, 64, white),
        word("STOP", 300, 80, 170, 64, white),
        word("CITY", 150, 200, 120, 44, white),
        word("CENTRE", 285, 200, 190, 44, white),
        word("Airport", 150, 290, 140, 40, Style(SANS, WHITE)),
        word("Route", 560, 90, 120, 36, dark),
        word("42", 580, 140, 80, 64, dark),
    ]
    a = [hit(w, rng) for w in ws[:3]] + [hit(ws[3], rng, "CENTRF")]
    a += [hit(w, rng) for w in ws[4:]]
    b = [span(ws[0:2], rng, "BUSSTOP", "merge")]
    b += [hit(ws[2], rng, j=2, lo=0.6), hit(ws[3], rng, j=2, lo=0.6)]
    b += [hit(ws[5], rng, "Raute", 2, 0.5), hit(ws[6], rng, j=2, lo=0.5)]
    return Scene(
        6,
        size=(800, 600),
        paint=paint_6,
        words=ws,
        det_a=a,
        det_b=b,
        shows="Bus stop sign: two-word lines and a route number",
    )


def paint_7(size: tuple[int, int], nrng: np.random.Generator) -> Image.Image:
    img = gradient(size, (40, 110, 115), (25, 80, 85))
    panel(img, (140, 25, 500, 125), (20, 25, 30), (200, 200, 190), 3, 6)
    d = ImageDraw.Draw(img)
    d.line((230, 125, 230, 178), (60, 60, 60), 3)
    d.line((410, 125, 410, 178), (60, 60, 60), 3)
    panel(img, (200, 175, 440, 345), (150, 100, 55), (95, 60, 30), 5, 8)
    for y in range(185, 340, 9):
        d.line((210, y, 430, y + 3), (140, 92, 50), 2)
    panel(img, (500, 180, 630, 330), (70, 95, 110), (20, 30, 35), 5, 2)
    speckle(img, nrng, (505, 185, 625, 325), [(120, 140, 150), (40, 55, 65)], 90, 2)
    d.rectangle((0, 385, size[0], size[1]), fill=(110, 80, 50))
    return add_noise(img, nrng, 3)


def scene_7(rng: random.Random) -> Scene:
    sign = Style(SANS_B, (250, 245, 225), (70, 40, 15))
    shelf = Style(SANS, (245, 235, 210))
    ws = [
        word("Bookshop", 170, 40, 300, 70, Style(SERIF_I, WHITE)),
        word("OPEN", 240, 190, 160, 64, sign),
        word("DAILY", 240, 262, 160, 64, sign),
        word("Books", 60, 405, 110, 34, shelf),
        word("Maps", 470, 405, 100, 34, shelf),
    ]
    a = [hit(w, rng) for w in ws]
    b = [hit(ws[0], rng, "Bookshup", 2, 0.6), span(ws[1:3], rng, "OPEN DAILY", "multiline")]
    b += [hit(ws[4], rng, j=2, lo=0.5), false_pos(520, 230, 90, 34, rng, "MIL")]
    return Scene(
        7,
        size=(640, 480),
        paint=paint_7,
        words=ws,
        det_a=a,
        det_b=b,
        shows="Bookshop with a hanging two-line OPEN / DAILY board",
    )


def paint_8(size: tuple[int, int], nrng: np.random.Generator) -> Image.Image:
    img = gradient(size, (70, 30, 110), (230, 120, 60))
    d = ImageDraw.Draw(img)
    d.ellipse((242, 110, 782, 650), fill=(45, 20, 80), outline=(250, 200, 90), width=6)
    speckle(img, nrng, (0, 0, size[0], 100), [(255, 240, 200), (255, 255, 255)], 60, 2)
    for x in range(0, size[0], 90):
        d.polygon([(x, 768), (x + 45, 700), (x + 90, 768)], fill=(40, 15, 60))
    return add_noise(img, nrng, 3)


def scene_8(rng: random.Random) -> Scene:
    arc = Arc(512, 380, 215, 64, -58, 58)
    ws = [
        Word("FESTIVAL", Style(SANS_B, (250, 200, 90)), arc=arc, kind="arc"),
        word("MUSIC", 332, 420, 360, 100, Style(SANS_B, (255, 240, 120), SHADOW)),
        word("TICKETS", 430, 580, 164, 36, Style(SANS_B, WHITE)),
        word("Stage", 80, 640, 120, 40, Style(SERIF_I, WHITE)),
        word("Tonight", 820, 640, 150, 40, Style(SERIF_I, WHITE)),
    ]
    a_arc = Arc(512, 381, 216, 66, -59, 57)
    a = [Det(a_arc.polygon(), conf(rng, 0.8, 0.95), "FESTIVAL", "curved_poly")]
    a += [hit(w, rng) for w in ws[1:4]] + [hit(ws[4], rng, "Tonlght")]
    b = [span(ws[:1], rng, "FESTIVAL", "curved_box", 6)]
    b += [hit(ws[1], rng, "MUS1C", 2, 0.6), hit(ws[2], rng, j=2, lo=0.5)]
    return Scene(
        8,
        size=(1024, 768),
        paint=paint_8,
        words=ws,
        det_a=a,
        det_b=b,
        shows="Festival poster: FESTIVAL curved along a circle (polygon GT)",
    )


def paint_9(size: tuple[int, int], nrng: np.random.Generator) -> Image.Image:
    img = gradient(size, (225, 205, 170), (190, 165, 130))
    panel(img, (40, 50, 120, 430), (170, 25, 35), (240, 200, 90), 4, 6)
    panel(img, (150, 45, 620, 185), (30, 30, 40), (200, 170, 80), 4, 4)
    d = ImageDraw.Draw(img)
    for x in (170, 280):
        d.rectangle((x, 220, x + 80, 330), fill=(80, 100, 120), outline=(60, 45, 30), width=5)
    d.rectangle((180, 350, 300, size[1]), fill=(90, 60, 35))
    panel(img, (388, 322, 520, 398), (190, 160, 80), (120, 95, 40), 3, 3)
    speckle(img, nrng, (540, 220, 630, 460), [(200, 180, 140), (170, 150, 115)], 150, 2)
    return add_noise(img, nrng, 3)


def scene_9(rng: random.Random) -> Scene:
    small = Style(SANS, (40, 30, 20))
    ws = [
        Word("HOTEL", Style(SANS_B, WHITE), frame=box_frame(55, 70, 50, 340), kind="vertical"),
        word("GRAND", 170, 60, 430, 110, Style(SERIF_B, (235, 200, 100))),
        word("reception", 398, 330, 100, 16, small),
        word("wifi", 398, 352, 44, 16, small),
        word("parking", 398, 374, 80, 16, small),
    ]
    a = [hit(ws[0], rng, case="vertical"), hit(ws[1], rng)]
    a += [hit(ws[2], rng, lo=0.6), hit(ws[3], rng, lo=0.6)]
    b = [span(ws[:1], rng, "H0TEL", "vertical", 5), hit(ws[1], rng, j=2, lo=0.7)]
    return Scene(
        9,
        size=(640, 480),
        paint=paint_9,
        words=ws,
        det_a=a,
        det_b=b,
        shows="Hotel: vertical stacked HOTEL, very large GRAND, tiny plaque text",
    )


def paint_10(size: tuple[int, int], nrng: np.random.Generator) -> Image.Image:
    img = gradient(size, (150, 160, 150), (110, 120, 112))
    speckle(img, nrng, (0, 0, 80, size[1]), [(120, 130, 120), (180, 185, 178)], 250, 3)
    speckle(img, nrng, (720, 0, size[0], size[1]), [(120, 130, 120), (180, 185, 178)], 250, 3)
    panel(img, (80, 30, 720, 570), (248, 246, 236), (200, 195, 185), 2, 2)
    d = ImageDraw.Draw(img)
    d.line((110, 315, 690, 315), (200, 40, 40), 2)
    d.ellipse((392, 38, 408, 54), fill=(200, 40, 40))
    return add_noise(img, nrng, 3)


def scene_10(rng: random.Random) -> Scene:
    ink = Style(SANS, (40, 40, 45))
    ws = [
        word("NOTICE", 250, 60, 300, 70, Style(SANS_B, (200, 35, 35))),
        Word(
            "the shop will be/closed for repairs/until further notice",
            ink,
            frame=box_frame(120, 160, 560, 130),
            kind="blur",
        ),
        word("Closed", 130, 340, 200, 60, Style(SANS_B, DARK)),
        word("Sunday", 360, 340, 240, 74, Style(SANS_B, DARK)),
        word("Thanks", 300, 470, 200, 48, Style(SERIF_I, (40, 60, 120))),
    ]
    a = [
        hit(ws[0], rng),
        Det(box_frame(150, 182, 230, 30).quad(), conf(rng, 0.3, 0.5), "shap", "dontcare"),
    ]
    a += [hit(w, rng) for w in ws[2:]]
    b = [hit(ws[0], rng, "NOTlCE", 2, 0.6)]
    b += [Det(box_frame(100, 250, 300, 40).quad(), conf(rng, 0.3, 0.5), "until", "dontcare")]
    b += [Det(box_frame(420, 200, 200, 36).quad(), conf(rng, 0.3, 0.5), "repairs", "dontcare")]
    b += [hit(ws[2], rng, "CIosed", 2, 0.6), false_pos(10, 380, 60, 110, rng, "III")]
    return Scene(
        10,
        size=(800, 600),
        paint=paint_10,
        words=ws,
        det_a=a,
        det_b=b,
        shows="Paper notice with an illegible blurred paragraph (### region)",
    )


def paint_11(size: tuple[int, int], nrng: np.random.Generator) -> Image.Image:
    img = gradient(size, (150, 70, 50), (120, 55, 40))
    bricks(img, nrng, (0, 0, size[0], 580), (160, 70, 50))
    d = ImageDraw.Draw(img)
    d.rectangle((700, 60, 950, 300), fill=(35, 45, 55), outline=(220, 220, 215), width=8)
    d.line((825, 60, 825, 300), (220, 220, 215), 6)
    d.rectangle((0, 580, size[0], size[1]), fill=(85, 85, 88))
    panel(img, (60, 600, 290, 680), (30, 30, 30), (180, 180, 180), 3, 4)
    panel(img, (795, 600, 1005, 680), (30, 30, 30), (180, 180, 180), 3, 4)
    return add_noise(img, nrng, 2)


def scene_11(rng: random.Random) -> Scene:
    plaque = Style(SANS, WHITE)
    ws = [
        rword("ART", Frame(330, 300, 330, 150, -10), Style(SANS_B, (40, 200, 230), SHADOW)),
        rword("ZONE", Frame(720, 450, 280, 100, 6), Style(OBLIQUE, (250, 230, 60), SHADOW)),
        word("Gallery", 95, 620, 160, 40, plaque),
        word("Entrance", 815, 620, 170, 40, plaque),
    ]
    a = [hit(ws[0], rng, j=2, case="rotated"), hit(ws[1], rng, j=2, case="rotated")]
    a += [hit(ws[2], rng), hit(ws[3], rng)]
    a += [false_pos(30, 40, 130, 50, rng, "mm")]
    b = [span(ws[:1], rng, "ART", "rotated_aabb", 3), hit(ws[2], rng, j=2, lo=0.5)]
    b += [hit(ws[3], rng, j=2, lo=0.5), false_pos(720, 80, 90, 60, rng, "EE")]
    b += [false_pos(480, 110, 150, 40, rng, "mmm"), false_pos(40, 440, 120, 50, rng, "IIII")]
    return Scene(
        11,
        size=(1024, 768),
        paint=paint_11,
        words=ws,
        det_a=a,
        det_b=b,
        shows="Brick wall with tilted graffiti: texture that causes false positives",
    )


def paint_12(size: tuple[int, int], nrng: np.random.Generator) -> Image.Image:
    img = gradient(size, (170, 125, 80), (150, 105, 65))
    speckle(img, nrng, (0, 0, size[0], size[1]), [(120, 85, 50), (195, 150, 100)], 1500, 2)
    notes = (
        ((60, 60, 330, 260), (252, 252, 248)),
        ((380, 60, 740, 230), (250, 240, 150)),
        ((100, 320, 420, 560), (190, 215, 240)),
        ((470, 300, 740, 520), (245, 200, 210)),
    )
    d = ImageDraw.Draw(img)
    for box, color in notes:
        d.rectangle((box[0] + 5, box[1] + 5, box[2] + 5, box[3] + 5), fill=(100, 70, 40))
        d.rectangle(box, fill=color)
        cx = box[0] + 16
        d.ellipse((cx - 7, box[1] + 4, cx + 7, box[1] + 18), fill=(200, 30, 30))
    return add_noise(img, nrng, 3)


def scene_12(rng: random.Random) -> Scene:
    pen, marker = Style(SANS, (30, 30, 60)), Style(SANS_B, (20, 20, 20))
    ws = [
        word("ROOM", 80, 85, 120, 40, marker),
        word("FOR", 215, 85, 90, 40, marker),
        word("RENT", 80, 135, 130, 40, marker),
        word("Quiet", 80, 195, 90, 26, pen),
        word("area", 180, 197, 70, 22, pen),
        word("Guitar", 400, 85, 150, 46, Style(SERIF_I, (90, 40, 10))),
        word("lessons", 400, 145, 170, 40, Style(SERIF_I, (90, 40, 10))),
        word("weekly", 585, 152, 130, 32, pen),
        word("LOST", 130, 340, 150, 60, Style(SANS_B, (180, 20, 20))),
        word("CAT", 300, 340, 100, 60, Style(SANS_B, (180, 20, 20))),
        word("reward", 130, 420, 120, 30, pen),
        Word("555 0199", pen, frame=box_frame(130, 470, 220, 36), kind="blur"),
        word("Yoga", 500, 320, 140, 50, Style(SANS_B, (110, 20, 80))),
        word("class", 500, 390, 120, 40, pen),
        word("Friday", 500, 450, 140, 44, pen),
    ]
    a = [hit(ws[0], rng, j=0)] + [hit(w, rng) for w in ws[1:4]]
    a += [hit(ws[5], rng), hit(ws[6], rng, "lessans")]
    a += [hit(w, rng) for w in ws[7:11]] + [hit(w, rng) for w in ws[12:]]
    keep_b = (0, 1, 2, 5, 6, 8, 9, 12, 14)
    b = [hit(ws[k], rng, j=2, lo=0.45) for k in keep_b[:-1]]
    b += [hit(ws[14], rng, "Fridav", 2, 0.45)]
    return Scene(
        12,
        size=(800, 600),
        paint=paint_12,
        words=ws,
        det_a=a,
        det_b=b,
        shows="Cork notice board: 15 boxes, many small words, blurred phone no.",
    )


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


# --------------------------------------------------------------------------
# Writing the dataset
# --------------------------------------------------------------------------


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


# --------------------------------------------------------------------------
# Analysis (pure Python geometry) and README
# --------------------------------------------------------------------------

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


CASE_TITLES = {
    "exact": "exact hit (IoU >= 0.90)",
    "near_fail": "near miss that just fails (IoU 0.46-0.495)",
    "near_pass": "near miss that just passes (IoU 0.505-0.54)",
    "crop": "crop cutting characters (TIoU penalty)",
    "swallow": "box swallowing part of a neighbour (TIoU outlier)",
    "split2": "one word split into 2 boxes",
    "split3": "one word split into 3 boxes",
    "overlap_split": "split into 2 overlapping boxes",
    "merge": "merge of two words on one line",
    "multiline": "merge across two stacked lines (TedEval multiline)",
    "fp": "false positive on background",
    "miss": "missed GT word",
    "dontcare": "box mostly inside a ### region",
    "rotated": "rotated word, rotated quad",
    "rotated_aabb": "rotated word, axis-aligned box",
    "curved_poly": "curved word, polygon detection",
    "curved_box": "curved word, loose axis-aligned quad",
    "vertical": "vertical (stacked letters) word",
    "loose": "loose box",
    "rec_error": "recognition error (1 wrong char)",
    "case_only": "case-only transcription difference",
}


def case_index(scenes: list[Scene]) -> dict[str, list[str]]:
    """Case key -> list of 'img_N det_x box k: ...' locations."""
    index: dict[str, list[str]] = {k: [] for k in CASE_TITLES}
    for s in scenes:
        for name, dets in (("det_a", s.det_a), ("det_b", s.det_b)):
            infos = analyse(s, dets)
            where = f"img_{s.n} {name}"
            exact = [str(i.idx) for i in infos if not i.det.case and i.iou >= 0.9]
            if exact:
                index["exact"].append(f"{where} boxes {','.join(exact)}")
            for info in infos:
                if info.det.case:
                    note = (
                        case_note(s, info)
                        if info.det.case not in SPLIT_CASES
                        else (f"IoU {info.iou:.2f} with {gt_ref(s, info.best)}")
                    )
                    index[info.det.case].append(f"{where} box {info.idx}: {note}")
                err = text_error(s, info)
                if err:
                    index["rec_error"].append(f"{where} {err}")
            for k in misses(s, infos):
                index["miss"].append(f"{where} misses {gt_ref(s, k)}")
    return index


def readme_text(scenes: list[Scene]) -> str:
    lines = [
        "# detlens demo dataset",
        "",
        "Synthetic scene-text images with ICDAR-2015 style ground truth and two",
        "detectors' results. Generated by `scripts/make_demo_data.py` - do not edit by",
        "hand: run `python scripts/make_demo_data.py` to regenerate this folder and",
        "`python scripts/make_demo_data.py --check` to print the self-check.",
        "",
        "- `images/img_N.jpg` - the 12 images (N = 1..12)",
        "- `gt/gt_img_N.txt` - `x1,y1,...,x4,y4,TRANSCRIPTION`, clockwise from the",
        "  word's top-left corner; `###` = don't care; img_8 has a 14-point polygon",
        "- `det_a/`, `det_b/` `res_img_N.txt` - `coords,CONFIDENCE,TRANSCRIPTION`;",
        "  det_a is a decent detector, det_b a weaker one that fails differently",
        "",
        '"GT k" is line k of the GT file and "box k" line k of the detector\'s file',
        "(1-based). IoU is the polygon intersection over union computed by the",
        "generator; ICDAR 2015 matching needs IoU > 0.5.",
        "",
        "## Samples",
        "",
        "| Sample | What it shows | det_a | det_b |",
        "| --- | --- | --- | --- |",
    ]
    for s in scenes:
        cells = ["<br>".join(detector_notes(s, analyse(s, d))) or "-" for d in (s.det_a, s.det_b)]
        lines.append(f"| img_{s.n} | {s.shows} ({len(s.words)} GT) | {cells[0]} | {cells[1]} |")
    lines += ["", "## Where each evaluation case is shown", "", "| Case | Where |", "| --- | --- |"]
    for key, where in case_index(scenes).items():
        if where:
            lines.append(f"| {CASE_TITLES[key]} | {'<br>'.join(where)} |")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------
# Self-check (--check): shapely cross-check, case verification, determinism
# --------------------------------------------------------------------------


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="print the self-check")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder")
    args = parser.parse_args(argv)
    scenes = build_scenes()
    write_dataset(args.out, scenes)
    print(f"wrote {len(scenes)} samples to {args.out}")
    return self_check(scenes, args.out) if args.check else 0


if __name__ == "__main__":
    sys.exit(main())
