"""HierText detection PQ at word, line and paragraph level. Face of the family: ``SPECS``.

The metrics apply to datasets read from HierText JSON (samples with a ``Hierarchy``).
"""

from __future__ import annotations

from metrics.hiertext import metric
from metrics.hiertext.params import HierTextParams
from metrics.hiertext.view import level_view
from metrics.spec import MetricSpec, hierarchical

__all__ = ["SPECS", "HierTextParams"]


_TITLES = {
    "word": "HierText word PQ",
    "line": "HierText line PQ",
    "paragraph": "HierText paragraph PQ",
}

SPECS: tuple[MetricSpec, ...] = tuple(
    MetricSpec(
        id=metric.metric_id(level),
        title=_TITLES[level],
        params_type=HierTextParams,
        evaluate=metric.evaluator(level),
        validate=metric.validator(level),
        aliases=(f"hiertext_{level}s", f"ht_{level}"),
        applies=hierarchical,
        global_extras=metric.global_extras,
        view=None if level == "word" else level_view(level),
        shardable=False,  # the set's hierarchy is checked as a whole
    )
    for level in metric.LEVELS
)
