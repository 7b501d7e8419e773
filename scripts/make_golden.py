"""Write the golden canvas snapshots of ``tests/viewer/golden/`` (``tests/viewer/test_golden.py``).

Run after a deliberate change of how the canvas paints, look at each PNG, and commit them:
``QT_QPA_PLATFORM=offscreen python scripts/make_golden.py``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtGui import QGuiApplication

from tests.viewer.golden_cases import CASES, GOLDEN, render


def main() -> int:
    app = QGuiApplication.instance() or QGuiApplication([])
    GOLDEN.mkdir(exist_ok=True)
    for case in CASES:
        out = GOLDEN / f"{case.name}.png"
        if not render(case).save(str(out)):
            print(f"could not write {out}", file=sys.stderr)
            return 1
        print(f"{out} ({out.stat().st_size} bytes)")
    del app
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
