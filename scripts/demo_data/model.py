"""Scene model (styles, words, detections, scenes) and word layout helpers."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from PIL import Image

from .config import RGB, Poly
from .geometry import Arc, Frame, box_frame


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
