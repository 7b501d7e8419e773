"""The canvas banner says why the shown metric has no result: never "evaluating…" when
nothing runs."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from viewer.scene.banner import banner_text


@dataclass
class _Side:
    failed: str | None = None
    busy: bool = False
    metric: str | None = "tiou"

    def skip_reason(self, sample_id: str | None, metric: str | None = None) -> str | None:
        return None

    def result(self, sample_id: str | None, metric: str | None = None) -> None:
        return None

    def sample(self, sample_id: str | None) -> None:
        return None

    def failure(self, metric: str | None = None) -> str | None:
        return self.failed

    def is_busy(self) -> bool:
        return self.busy


@pytest.mark.parametrize(
    ("side", "says"),
    [
        (_Side(busy=True), "tiou: evaluating…"),
        (_Side(), "tiou: not evaluated yet (Apply in the Metric panel runs it)"),
        (_Side(failed="cancelled"), "tiou: not evaluated (cancelled; Apply runs it again)"),
        (_Side(failed="GEOSException: x", busy=True), "tiou: not evaluated: GEOSException: x"),
    ],
)
def test_banner_when_the_metric_has_no_result(side: _Side, says: str) -> None:
    assert banner_text(side, "img_1", has_image=True) == says


@dataclass
class _Tagged:
    name: str
    metric: str | None
    overrides: dict[str, object]

    def params(self, metric: str | None = None) -> object:
        from metrics.catalogue.registry import make_params, resolve

        mid = metric or self.metric
        return None if mid is None else make_params(resolve(mid), self.overrides)


def test_the_corner_tag_names_the_metric_and_what_is_off_its_defaults() -> None:
    from viewer.scene.banner import side_tag

    # the metric was named only in the Metric tab (view_demo_1600.png, view_ic15_1600.png)
    assert side_tag(_Tagged("det_a", "tiou", {}), named=False) == "tiou"
    assert side_tag(_Tagged("det_a", "tiou", {}), named=True) == "det_a · tiou"
    fallback = _Tagged("det", "curved_tiou", {"auto_orient": "true"})
    assert side_tag(fallback, named=False) == "curved_tiou · auto_orient=true"
    # comparing two metrics on one detector: each side is named after its metric
    assert side_tag(_Tagged("deteval", "deteval", {}), named=True) == "deteval"
    assert side_tag(_Tagged("A", None, {}), named=False) == ""
    assert side_tag(None, named=True) == ""
