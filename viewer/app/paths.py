"""Where a dataset comes from (Qt-free, so the command line can build it without Qt)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path

from metrics.core.floats import check_mode
from metrics.core.model import BoxType
from metrics.io.icdar.plan import LoadOptions


@dataclasses.dataclass(frozen=True)
class DatasetPaths:
    gt: str
    det: str | None = None
    images: str | None = None
    gt_lines: str | None = None
    # how the files are read (the command line's reading options; JSON-friendly values)
    floats: str = "as-given"
    det_confidence: bool | None = None
    det_transcription: bool | None = None
    gt_format: str | None = None
    det_format: str | None = None
    box_type: str | None = None

    def options(self) -> LoadOptions:
        """The reader switches of these paths."""
        bt = BoxType(self.box_type) if self.box_type else None
        return LoadOptions(
            gt_box_type=bt,
            det_box_type=bt,
            det_confidence=self.det_confidence,
            det_transcription=self.det_transcription,
            gt_format=self.gt_format,
            det_format=self.det_format,
            floats=check_mode(self.floats),
        )

    def reading(self) -> dict[str, object]:
        """The reading options alone, to carry over to other paths (a second detector)."""
        names = ("floats", "det_confidence", "det_transcription", "gt_format", "det_format")
        return {k: getattr(self, k) for k in (*names, "box_type")}

    @property
    def title(self) -> str:
        det = Path(self.det).name if self.det else "no detections"
        return f"{Path(self.gt).name} / {det}"


def reading_overrides(
    overrides: Mapping[str, Mapping[str, object]] | None, paths: DatasetPaths | None
) -> dict[str, dict[str, object]]:
    """The metric overrides with ``--floats refuse`` applied (``allow_float=false`` for every
    metric that has it; what the user set explicitly wins)."""
    out = {k: dict(v) for k, v in (overrides or {}).items()}
    if paths is None or paths.floats != "refuse":
        return out
    from metrics.catalogue.registry import METRICS, float_refusals

    for mid, values in float_refusals([METRICS[m] for m in METRICS]).items():
        if values:
            out[mid] = {**values, **out.get(mid, {})}
    return out
