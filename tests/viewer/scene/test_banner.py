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
