"""CLEval's pair table for one image: what its matching compares for every GT x detection
pair (spec 5.4), from its own preparation (``core.prepare``): the area precision, held
against ``area_precision``, and the share of the GT's pseudo character centres inside the
detection, which must be above 0."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from metrics.cleval.core import prepare
from metrics.cleval.metric import rules
from metrics.cleval.params import Params
from metrics.core.evidence import Limit, PairTable
from metrics.core.model import Sample
from metrics.shapes.cache import GeometryCache


def pair_table(*, e2e: bool) -> Callable[[Sample, Params], PairTable]:
    """The pair table of a CLEval metric (detection or end-to-end)."""

    def table(sample: Sample, params: Params) -> PairTable:
        r = rules(params, e2e)
        b = prepare([sample], r, GeometryCache())
        n_gt, n_det = len(sample.gt), len(sample.det)
        ap, chars = np.zeros((n_gt, n_det)), np.zeros((n_gt, n_det))
        det = b.d_file[b.pj]  # evaluation order -> file order
        ap[b.pi, det] = b.ap
        pccs = np.bincount(b.p_owner, minlength=n_gt)
        chars[b.pi, det] = b.cnt / np.maximum(pccs[b.pi], 1)
        return PairTable(
            tuple(range(n_gt)),
            tuple(range(n_det)),
            ("area precision", "character recall"),
            (ap, chars),
            (
                "|G ∩ D| / |D|; a one-to-one or split pair needs it, with at least one of the "
                "GT's characters inside; a merge needs the detection's sum over its GTs to "
                "reach the limit",
                "the GT's pseudo character centres inside the detection / its characters; a "
                "pair without any is never matched",
            ),
            (Limit(">=", r.c), Limit(">", 0.0)),
        )

    return table
