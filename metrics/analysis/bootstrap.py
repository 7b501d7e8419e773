"""Is B really better than A? A paired bootstrap over images, from per-image tallies.

Both evaluations cover the same images (two detectors under one metric, or two metrics on
one detector). A resample draws n images with replacement; A's and B's scores on it are
their formulas applied to the summed tallies of the drawn images (a weight matrix times
the tally vectors: nothing is re-run), so each resample is paired. Reported: the observed
ΔH = H(B) − H(A), the 2.5 and 97.5 percentiles of the resampled ΔH (a 95 % percentile
interval), the share of resamples with ΔH <= 0, and the images where B's H-mean is
higher / lower / equal (within ``EQUAL``; the images' own H-means, as the tables show).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from metrics.analysis import tallies
from metrics.core.model import FloatArray
from metrics.core.protocols import Params
from metrics.core.records import dataclass
from metrics.core.results import Evaluation, aggregate

EQUAL = 1e-9


@dataclass(frozen=True)
class Bootstrap:
    """The paired bootstrap of ΔH (B − A) and the per-image better/worse/equal counts."""

    delta: float
    low: float
    high: float
    share_not_better: float
    resamples: int
    images: int
    better: int
    worse: int
    equal: int
    seed: int

    def line(self) -> str:
        """One line for people."""
        images = f"{self.images} image" + ("" if self.images == 1 else "s")
        return (
            f"ΔH (B − A) {self.delta:+.4f}, 95 % interval [{self.low:+.4f}, {self.high:+.4f}] "
            f"({self.resamples} paired bootstrap resamples of {images}, seed "
            f"{self.seed}); B ≤ A in {100 * self.share_not_better:.1f} % of resamples; "
            f"images B better {self.better}, worse {self.worse}, equal {self.equal}"
        )


BLOCK = 1 << 22
"""Resample x image counts drawn at once (about 100 MB of arrays); the same numbers as one
draw, since the generator's stream is consumed in the same order."""


def weights(n: int, resamples: int, rng: np.random.Generator) -> FloatArray:
    """(resamples, n) counts: how often each image is drawn in each resample."""
    idx = rng.integers(0, n, size=(resamples, n)) + np.arange(resamples)[:, None] * n
    counts = np.bincount(idx.ravel(), minlength=resamples * n)
    return counts.reshape(resamples, n).astype(np.float64)


def paired(
    a: Evaluation[Params],
    b: Evaluation[Params],
    *,
    resamples: int = 10_000,
    seed: int = 0,
    ids: Sequence[str] | None = None,
) -> Bootstrap:
    """Paired bootstrap over the images both evaluations scored (or ``ids``)."""
    common = [s for s in (ids if ids is not None else a.results) if s in b.results]
    if not common:
        raise ValueError("the two evaluations share no image")
    ta = [a.results[s].tally for s in common]
    tb = [b.results[s].tally for s in common]
    fa, fb = tallies.matrix(ta), tallies.matrix(tb)
    # the observed scores as every summary adds them (left to right): the same figures as
    # the headline of a comparison over these images (``metrics.analysis.compare``), to the bit
    h_a = aggregate(a.results[s] for s in common).hmean
    h_b = aggregate(b.results[s] for s in common).hmean
    rng = np.random.default_rng(seed)
    rows = max(1, BLOCK // len(common))  # resamples drawn a block at a time: bounded memory
    parts = []
    for start in range(0, resamples, rows):
        w = weights(len(common), min(rows, resamples - start), rng)
        parts.append(tallies.scores(tb[0], w @ fb)[:, 2] - tallies.scores(ta[0], w @ fa)[:, 2])
    d = np.concatenate(parts) if parts else np.zeros(0)
    per_a = np.array([a.results[s].hmean for s in common])
    per_b = np.array([b.results[s].hmean for s in common])
    diff = per_b - per_a
    low, high = np.percentile(d, [2.5, 97.5])
    return Bootstrap(
        delta=h_b - h_a,
        low=float(low),
        high=float(high),
        share_not_better=float(np.mean(d <= 0.0)),
        resamples=resamples,
        images=len(common),
        better=int(np.sum(diff > EQUAL)),
        worse=int(np.sum(diff < -EQUAL)),
        equal=int(np.sum(np.abs(diff) <= EQUAL)),
        seed=seed,
    )
