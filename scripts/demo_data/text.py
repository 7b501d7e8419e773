"""Fonts and text rendering: glyph masks, tiles and drawing of each kind of word."""

from __future__ import annotations

import math

from PIL import Image, ImageDraw, ImageFilter, ImageFont

from .config import FONT_DIR
from .geometry import box_frame, rnd
from .model import Style, Word

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
