"""Detection builders (hits, crops, splits, merges, near misses), driven by the seeded RNG."""

from __future__ import annotations

import random

from .config import Poly
from .geometry import Frame, bbox_quad, box_frame, iou
from .model import Det, Word


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
