"""``metrics.mmocr.verdicts.compose``: a sweep result moved from threshold to threshold shows
that threshold's verdicts and matches, whatever threshold it was shown at before (the
instances that do not change are kept as they are)."""

from __future__ import annotations

from metrics.catalogue.registry import make_params, resolve
from metrics.core.results import SampleResult, Verdict
from metrics.mmocr.evidence import SweepEvidence
from metrics.mmocr.specs import at_threshold
from tests.support import quad, sample


def rect(x0: float, y0: float, x1: float, y1: float) -> str:
    return f"{x0},{y0},{x1},{y0},{x1},{y1},{x0},{y1}"


def _result() -> SampleResult:
    """GT A, B; det 0 matches A until 0.5, det 1 matches A from there (0 is dropped), det 2
    is a false positive until 0.7, det 3 matches B at every threshold."""
    spec = resolve("mmocr_hmean_iou")
    s = sample(
        [quad(rect(0, 0, 10, 10), "a", 1), quad(rect(50, 0, 60, 10), "b", 2)],
        [
            quad(rect(0, 0, 10, 9), None, 1, conf=0.45),
            quad(rect(0, 0, 10, 8), None, 2, conf=0.95),
            quad(rect(100, 100, 110, 110), None, 3, conf=0.65),
            quad(rect(50, 0, 60, 10), None, 4, conf=0.99),
        ],
    )
    return spec.evaluate([s], make_params(spec))[0]


def _seen(r: SampleResult) -> tuple[list[Verdict], list[Verdict], list[tuple[int, int]]]:
    pairs = [(m.gt[0], m.det[0]) for m in r.matches]
    return [g.verdict for g in r.gt], [d.verdict for d in r.det], pairs


def test_every_threshold_from_every_other() -> None:
    r = _result()
    ev = r.evidence
    assert isinstance(ev, SweepEvidence)
    direct = [at_threshold(r, k) for k in range(len(ev.thresholds))]
    for k, shown in enumerate(direct):
        for other in direct:
            assert at_threshold(other, k) == shown
    m, fp, dc = Verdict.MATCHED, Verdict.FALSE_POSITIVE, Verdict.DONT_CARE
    assert _seen(direct[0]) == ([m, m], [m, fp, fp, m], [(0, 0), (1, 3)])
    assert _seen(direct[2]) == ([m, m], [dc, m, fp, m], [(0, 1), (1, 3)])
    assert _seen(direct[4]) == ([m, m], [dc, m, dc, m], [(0, 1), (1, 3)])
