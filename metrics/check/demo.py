"""What the bundled demo data shows on purpose: its findings are labelled as such (info)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

from metrics.check.findings import Finding, Level
from metrics.core.model import Dataset, InputError
from metrics.io.demo import demo_paths

# (code, sample) pairs the demo contains deliberately (resources/demo/README.md).
_CURVED = "img_8's curved GT 'FESTIVAL' is a 14-point polygon among quads, on purpose"
DELIBERATE: dict[tuple[str, str | None], str] = {
    ("metric_skips", "img_8"): _CURVED,
    ("mixed_types", "img_8"): _CURVED,
}


def is_demo(ds: Dataset) -> bool:
    """Whether ``ds`` is the bundled demo data (its GT folder)."""
    if ds.gt_path is None:
        return False
    try:
        return Path(ds.gt_path).resolve() == demo_paths().gt.resolve()
    except InputError:
        return False


def label_demo(findings: Sequence[Finding]) -> list[Finding]:
    out = []
    for f in findings:
        why = DELIBERATE.get((f.code, f.sample_id)) or DELIBERATE.get((f.code, None))
        if why is None:
            out.append(f)
        else:
            out.append(
                dataclasses.replace(f, level=Level.INFO, message=f"{f.message} [demo: {why}]")
            )
    return out
