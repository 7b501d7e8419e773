"""What ``detlens check`` reports: findings with a severity, a code, a place and, where the
viewer can draw it, the geometry behind it (crossing points, out-of-image parts)."""

from __future__ import annotations

from enum import StrEnum

from metrics.core.jsonvalue import JSONObject
from metrics.core.model import FloatArray, Instance, Sample, locate, printable
from metrics.core.records import dataclass, field


class Level(StrEnum):
    """Severity of a finding: ``error`` (official scripts fail or scores are meaningless),
    ``warning`` (numbers silently change), ``info`` (worth knowing, or what a demo shows)."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


RANK = {Level.ERROR: 0, Level.WARNING: 1, Level.INFO: 2}


@dataclass(frozen=True, slots=True)
class Finding:
    """One finding.

    ``side`` is ``"gt"`` or ``"det"`` for an instance finding (``index`` 0-based into the
    sample's list; printed from 1 like the line), None for a file or dataset finding.
    ``points`` are places to mark (a bow-tie's crossings); ``regions`` rings to outline (the
    part of a box outside its image, a duplicated box).
    """

    level: Level
    code: str
    message: str
    source: str | None = None
    line: int | None = None
    sample_id: str | None = None
    side: str | None = None
    index: int | None = None
    points: tuple[tuple[float, float], ...] = ()
    regions: tuple[FloatArray, ...] = field(default=(), compare=False)

    def where(self) -> str:
        """``file:line`` (or the file, or the sample, or ``dataset``)."""
        if self.source is None:
            return self.sample_id or "dataset"
        return locate(self.source, self.line, self.sample_id)

    def __str__(self) -> str:
        inst = f" ({self.side} {self.index + 1})" if self.index is not None and self.side else ""
        return printable(f"{self.where()}: {self.level.value}: {self.message}{inst}")

    def as_dict(self) -> JSONObject:
        return {
            "level": self.level.value,
            "code": self.code,
            "message": self.message,
            "file": self.source,
            "line": self.line,
            "sample": self.sample_id,
            "side": self.side,
            "instance": None if self.index is None else self.index + 1,
            "points": [list(p) for p in self.points],
            "regions": [r.tolist() for r in self.regions],
        }


def at(
    level: Level,
    code: str,
    message: str,
    sample: Sample,
    side: str,
    index: int,
    inst: Instance,
    *,
    points: tuple[tuple[float, float], ...] = (),
    regions: tuple[FloatArray, ...] = (),
) -> Finding:
    """A finding on one instance of a sample (file and line from the instance), with its
    ``points`` to mark and ``regions`` to outline."""
    source = sample.gt_source if side == "gt" else sample.det_source
    where = (source or sample.id, inst.line, sample.id, side, index)
    return Finding(level, code, message, *where, points=points, regions=regions)


def instances(sample: Sample) -> list[tuple[str, int, Instance]]:
    """(side, index, instance) of every GT and detection of a sample."""
    return [("gt", k, g) for k, g in enumerate(sample.gt)] + [
        ("det", k, d) for k, d in enumerate(sample.det)
    ]
