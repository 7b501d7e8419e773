"""What both Total-Text scripts do before matching: polygons, areas, intersections and the
don't-care filter (spec D1 / V1), for a block of samples at once.

Polygons are built as ``polygon_fast.py`` builds them: ``int()`` vertices, ``buffer(0)`` of
every polygon for the intersection (and union) areas, the area of the polygon *as given*
for ``area(P)`` (quirk 17). The geometry comes from ``metrics.shapes.geometry`` in its
``"totaltext"`` mode (one STRtree and one vectorized GEOS call per block), memoized for the
run so that ``totaltext_deteval`` and ``totaltext_voc`` share it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np
import numpy.typing as npt
import shapely

from metrics.core.evidence import Absorbed
from metrics.core.floats import REFUSED
from metrics.core.model import FloatArray, Problem, Sample, Severity
from metrics.core.records import dataclass
from metrics.core.results import InstanceResult, SampleResult, Verdict, credit_tally
from metrics.shapes import robust
from metrics.shapes.cache import GeometryCache
from metrics.shapes.geometry import FlatGeometry, SampleGeometry, split_geometry

IntArray = npt.NDArray[np.intp]
BoolArray = npt.NDArray[np.bool_]
MODE = "totaltext"


@dataclass(frozen=True)
class Prepared:
    """One sample after the don't-care filter.

    ``care_gt`` / ``kept_det`` are the file indices of the care GTs and of the detections
    the filter kept (the rows and columns of ``inter``); ``absorbed[j]`` is the don't-care GT
    that removed detection ``j`` (file indices, -1 if kept) and ``absorbed_iod[j]`` its
    ``inter / (area(D) + 1)``. Areas are those of the polygons as given.
    """

    care_gt: IntArray
    kept_det: IntArray
    absorbed: IntArray
    absorbed_iod: FloatArray
    inter: FloatArray
    gt_area: FloatArray
    det_area: FloatArray
    n_gt: int
    n_det: int

    @property
    def dc_dets(self) -> tuple[Absorbed, ...]:
        """The removed detections with the GT that absorbed them (typed evidence)."""
        return tuple(
            Absorbed(int(j), int(self.absorbed[j]), float(self.absorbed_iod[j]))
            for j in np.flatnonzero(self.absorbed >= 0)
        )

    def absorbed_result(self, j: int) -> InstanceResult:
        """The verdict of detection ``j`` removed by the filter: don't care, absorbed by."""
        return InstanceResult(
            j,
            Verdict.DONT_CARE,
            absorbed_by=int(self.absorbed[j]),
            values={"dc_iod": float(self.absorbed_iod[j])},
        )


def frozen(a: FloatArray) -> FloatArray:
    """A read-only float64 copy (evidence tables)."""
    out = np.array(a, dtype=np.float64)
    out.flags.writeable = False
    return out


def _flat(samples: Sequence[Sample], geometry: GeometryCache) -> FlatGeometry:
    return geometry.flat(samples, MODE)


def prepare(
    samples: Sequence[Sample], dc_threshold: float, geometry: GeometryCache
) -> list[Prepared]:
    """Prepared samples of a block (memoized in ``geometry``, the run's cache: both metrics
    use them)."""
    if not samples:
        return []
    return geometry.memo(
        ("totaltext_prepare", dc_threshold, *map(id, samples)),
        samples[0],
        lambda: [
            _prepare_one(s, g, dc_threshold)
            for s, g in zip(samples, split_geometry(_flat(samples, geometry)), strict=True)
        ],
    )


def unions(samples: Sequence[Sample], geometry: GeometryCache) -> list[FloatArray]:
    """Per sample, the dense GT x det matrix of ``area(buffer0(D) ∪ buffer0(G))`` for the
    pairs that intersect (0 elsewhere, where the IoU is 0 anyway)."""
    if not samples:
        return []
    f = _flat(samples, geometry)
    hit = f.inter > 0
    union = np.zeros(len(f.inter))
    union[hit] = shapely.area(robust.union(f.d_geoms[f.pj[hit]], f.g_geoms[f.pi[hit]]))
    return [g.inter for g in split_geometry(replace(f, inter=union))]


def _prepare_one(sample: Sample, g: SampleGeometry, dc_threshold: float) -> Prepared:
    n_gt, n_det = len(sample.gt), len(sample.det)
    dc = np.fromiter((i.dont_care for i in sample.gt), dtype=bool, count=n_gt)
    many = np.fromiter((len(i.points) > 1 for i in sample.gt), dtype=bool, count=n_gt)
    absorbed, iod = dont_care_filter(g.inter, g.det_area, dc & many, dc_threshold)
    care = np.flatnonzero(~dc)
    kept = np.flatnonzero(absorbed < 0)
    return Prepared(
        care_gt=care,
        kept_det=kept,
        absorbed=absorbed,
        absorbed_iod=iod,
        inter=g.inter[np.ix_(care, kept)],
        gt_area=g.gt_area[care],
        det_area=g.det_area[kept],
        n_gt=n_gt,
        n_det=n_det,
    )


def dont_care_filter(
    inter: FloatArray, det_area: FloatArray, filtering: BoolArray, threshold: float
) -> tuple[IntArray, FloatArray]:
    """D1: the first filtering GT (GT order) with ``inter / (area(D) + 1.0) > threshold``
    removes the detection. Returns, per detection, that GT (-1 if none) and the ratio."""
    n_det = inter.shape[1]
    absorbed = np.full(n_det, -1, dtype=np.intp)
    ratio = np.zeros(n_det)
    rows = np.flatnonzero(filtering)
    if len(rows) == 0 or n_det == 0:
        return absorbed, ratio
    iod = inter[rows] / (det_area + 1.0)
    hit = iod > threshold
    removed = np.flatnonzero(hit.any(axis=0))
    first = np.argmax(hit[:, removed], axis=0)
    absorbed[removed] = rows[first]
    ratio[removed] = iod[first, removed]
    return absorbed, ratio


def evaluated(sample: Sample, missing_det_file: str) -> bool:
    """Whether the scripts evaluate the image: only if it has a detection file (quirk 1),
    unless ``missing_det_file="empty"``."""
    return sample.det_source is not None or missing_det_file == "empty"


def per_evaluated(
    samples: Sequence[Sample],
    missing_det_file: str,
    metric: str,
    zero: dict[str, float],
    evaluate: Callable[[list[Sample]], list[SampleResult]],
) -> list[SampleResult]:
    """``evaluate`` on the images the scripts evaluate (one batch), ``not_evaluated`` (with
    the extras ``zero``) for the others, in the order of ``samples``."""
    todo = [s for s in samples if evaluated(s, missing_det_file)]
    done = iter(evaluate(todo))
    return [
        next(done) if evaluated(s, missing_det_file) else not_evaluated(s, metric, zero)
        for s in samples
    ]


def not_evaluated(sample: Sample, metric: str, extra: dict[str, float]) -> SampleResult:
    """Quirk 1: an image without a detection file. The scripts never see it: its GT counts
    nowhere (don't care, with ``not_evaluated``) and the result says why."""
    why = (
        "no detection file: the Total-Text scripts do not evaluate this image and its GT "
        "counts nowhere (set missing_det_file=empty to count it as missed)"
    )
    gt = tuple(
        InstanceResult(i, Verdict.DONT_CARE, values={"not_evaluated": 1.0})
        for i in range(len(sample.gt))
    )
    counts = {"num_gt": len(sample.gt), "num_gt_care": 0, "num_det": 0, "num_det_care": 0}
    return SampleResult(
        metric=metric,
        sample_id=sample.id,
        recall=0.0,
        precision=0.0,
        hmean=0.0,
        tally=credit_tally(0, 0, 0.0, 0.0),
        gt=gt,
        det=(),
        warnings=(Problem(Severity.WARNING, sample.gt_source or "GT", None, why, sample.id),),
        extra={**counts, **extra},
    )


def validate(samples: Sequence[Sample], *, allow_float: bool) -> list[Problem]:
    """What crashes the scripts: a detection with fewer than 3 points (shapely refuses the
    polygon) or, with ``allow_float=false``, non-integer coordinates (``int()``, quirk 16)."""
    out: list[Problem] = []
    for s in samples:
        where = s.det_source or "det"
        for inst in s.det:
            if len(inst.points) < 3:
                msg = f"a detection needs at least 3 points, found {len(inst.points)}"
                out.append(Problem(Severity.ERROR, where, inst.line, msg, s.id))
            if not inst.integer and not allow_float:
                out.append(Problem(Severity.ERROR, where, inst.line, REFUSED, s.id))
    return out
