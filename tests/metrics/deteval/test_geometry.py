"""DetEval geometry of a block: each image's part is what the image alone gives."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from metrics.deteval.geometry import geometries
from tests.support import box, ltrb_sample


def _image(rng: np.random.Generator, n_gt: int, n_det: int) -> tuple:
    def boxes(n: int, text: str | None) -> tuple:
        x, y = rng.integers(0, 40, n), rng.integers(0, 40, n)
        w, h = rng.integers(0, 20, n), rng.integers(0, 12, n)
        dc = rng.random(n) < 0.2
        return tuple(
            box(int(a), int(b), int(a + c), int(b + d), "###" if e else text, line=k + 1)
            for k, (a, b, c, d, e) in enumerate(zip(x, y, w, h, dc, strict=True))
        )

    return boxes(n_gt, "ABC"), boxes(n_det, None)


@pytest.mark.parametrize("every_pair", [False, True])
@pytest.mark.parametrize("seed", range(4))
def test_block_geometry_is_each_image_alone(seed: int, every_pair: bool) -> None:
    rng = np.random.default_rng(seed)
    sizes = [(0, 3), (3, 0), (0, 0), (1, 1), (2, 2)] + [
        (int(a), int(b)) for a, b in rng.integers(0, 9, (30, 2))
    ]  # small images: often every pair a candidate, kept with its zero overlaps
    samples = [ltrb_sample(*_image(rng, a, b)) for a, b in sizes]
    block = geometries(samples, 0.4, every_pair)
    for s, got in zip(samples, block, strict=True):
        alone = geometries([s], 0.4, every_pair)[0]
        for f in dataclasses.fields(got):
            a, b = getattr(got, f.name), getattr(alone, f.name)
            assert a.dtype == b.dtype and np.array_equal(a, b), f.name
    assert any(len(g.pi) for g in block) and any(g.det_dc.any() for g in block)
