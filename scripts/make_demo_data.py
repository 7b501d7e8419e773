"""Generate the bundled detlens demo dataset into ``resources/demo/``.

What it writes (12 synthetic scene-text images and their annotations):

* ``images/img_N.jpg``       N = 1..12, drawn with Pillow (JPEG quality 85)
* ``gt/gt_img_N.txt``        ICDAR-2015 ground truth, one word per line:
  ``x1,y1,...,x4,y4,TRANSCRIPTION`` (integer coordinates, clockwise in image
  coordinates starting at the word's top-left corner; one curved word uses
  a 14-point polygon; ``###`` marks don't-care regions)
* ``det_a/res_img_N.txt``    detector "a" (decent): ``coords,CONF,TEXT``
* ``det_b/res_img_N.txt``    detector "b" (weaker, fails differently)
* ``README.md``              which evaluation case each image demonstrates

All coordinates come from the layout numbers chosen in this script (word
position, size, angle), never from font metrics, and every random choice uses
a fixed seed, so the .txt files are byte-identical on any machine. The text is
rendered with DejaVu fonts when they exist (else Pillow's default font) and
stretched to fill its layout box, so only the pixels depend on the fonts.

Re-run from the repository root::

    python scripts/make_demo_data.py            # regenerate resources/demo/
    python scripts/make_demo_data.py --check    # regenerate + print self-check

``--check`` needs shapely >= 2 (used only for the self-check): it prints the
best GT and IoU of every detection, where each evaluation case is shown,
verifies polygon validity and orientation, the near-miss IoU ranges, the
folder size (< 2 MB) and that a second run gives identical .txt files.

The code lives in the ``demo_data`` package next to this file (geometry, scene
model, text rendering, drawing, the scenes, writing, README, self-check and
command line); this file is only the entry point.
"""

from __future__ import annotations

import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    """Run the generator in the ``demo_data`` package next to this file."""
    here = str(Path(__file__).resolve().parent)
    if sys.path[:1] != [here]:
        sys.path.insert(0, here)
    from demo_data.cli import main as cli_main

    return cli_main(argv)


if __name__ == "__main__":
    sys.exit(main())
