"""Where a dataset comes from (Qt-free, so the command line can build it without Qt)."""

from __future__ import annotations

import dataclasses
from pathlib import Path


@dataclasses.dataclass(frozen=True)
class DatasetPaths:
    gt: str
    det: str | None = None
    images: str | None = None
    gt_lines: str | None = None

    @property
    def title(self) -> str:
        det = Path(self.det).name if self.det else "no detections"
        return f"{Path(self.gt).name} / {det}"
