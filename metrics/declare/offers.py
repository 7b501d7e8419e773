"""Which datasets each metric is offered for by ``--metric all``: the ``applies`` predicates.

Light on purpose (no numpy, no shapely, no metric family at import time): the catalog
(``metrics.catalogue.catalog``) names them so that ``--metric all`` decides what applies before any
family is imported. Each predicate's docstring is what the CLI says when a metric asked for
is meant for other inputs. ``metrics.declare.spec`` re-exports them for the families.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from metrics.core.model import Dataset, Facts

# A dataset is "polygon data" (Total-Text, CTW1500) when at least this share of its GT boxes
# are polygons of other than 4 vertices. Total-Text has 52 % such boxes (the rest are
# 4-point polygons), CTW1500 100 %; an ICDAR-style set with a few curved words (the demo
# has 1 in 78) stays with the quad family.
POLYGON_SHARE = 0.25


def _facts(ds: Dataset | Facts) -> Facts:
    """A dataset's facts (counted once), or the facts themselves (``metrics.run.sharded``)."""
    from metrics.core.model import Facts  # the data is read, so the model is loaded already

    return ds if isinstance(ds, Facts) else ds.facts


def always(ds: Dataset | Facts) -> bool:
    """Offered for every dataset."""
    del ds
    return True


def polygon_data(ds: Dataset | Facts) -> bool:
    """Curved family and the curved datasets' own protocols: polygon data (Total-Text,
    CTW1500), i.e. at least a quarter of the GT boxes are polygons."""
    return _facts(ds).polygon_share >= POLYGON_SHARE


def quad_data(ds: Dataset | Facts) -> bool:
    """ICDAR quad family, TedEval: data that is not polygon data (IC13, IC15, MLT, ...)."""
    return not polygon_data(ds)


def ctw1500_like(ds: Dataset | Facts) -> bool:
    """SCUT-CTW1500's own protocol: polygon data whose every GT box has exactly 14 points
    (the dataset's format; its script fails on anything else)."""
    f = _facts(ds)
    return f.n_gt > 0 and polygon_data(f) and f.n_gt_14 == f.n_gt


def totaltext_like(ds: Dataset | Facts) -> bool:
    """Total-Text's own protocols: polygon data of varying vertex counts (Total-Text mixes
    curved polygons with 4-point lines), i.e. polygon data that is not CTW1500-like."""
    return polygon_data(ds) and not ctw1500_like(ds)


def ltrb_only(ds: Dataset | Facts) -> bool:
    """Axis-aligned LTRB boxes on every line (xmin,ymin,xmax,ymax: ICDAR 2013)."""
    from metrics.core.model import BoxType  # the data is read, so the model is loaded already

    return _facts(ds).box_types <= {BoxType.LTRB}


def transcribed(ds: Dataset | Facts) -> bool:
    """End-to-end metrics: every detection carries a transcription."""
    return _facts(ds).has_transcriptions


def with_gt_lines(ds: Dataset | Facts) -> bool:
    """Word + text-line metrics: text-line GT given, and not a polygon dataset."""
    return _facts(ds).has_gt_lines and quad_data(ds)


def with_confidences(ds: Dataset | Facts) -> bool:
    """Offered when every detection carries a confidence (score)."""
    return _facts(ds).has_confidences


def hierarchical(ds: Dataset | Facts) -> bool:
    """Datasets read from HierText JSON (every sample carries lines and paragraphs)."""
    f = _facts(ds)
    return f.n_samples > 0 and f.n_hier == f.n_samples
