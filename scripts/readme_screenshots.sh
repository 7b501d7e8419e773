#!/usr/bin/env bash
# Redo the README's viewer screenshots from the bundled demo data (offscreen, 1600x900), then
# the gallery's and the Analysis panel's from the shared benchmark sets
# (${DETLENS_SHARED:-../shared}/data; skipped with a message when they are absent).
# Run from the repository root in the environment of README's first command.
set -euo pipefail
export QT_QPA_PLATFORM=offscreen
demo=resources/demo
shot() { detlens view --gt "$demo/gt" --det "$demo/det_b" --images "$demo/images" --size 1600x900 "$@"; }
shot --metric tiou --sample img_4 --select det:2 --screenshot docs/tiou_img_4.png
shot --metric tedeval --sample img_7 --select gt:2 --screenshot docs/tedeval_img_7.png
shot --metric cleval_det --sample img_5 --select gt:2 --screenshot docs/cleval_img_5.png
detlens view --gt "$demo/gt" --det "$demo/det_a" --det "$demo/det_b" --images "$demo/images" \
    --size 1600x900 --metric tedeval --sample img_7 --screenshot docs/compare_img_7.png
shared="${DETLENS_SHARED:-../shared}/data"
if [ -d "$shared" ]; then
    python scripts/gallery_screenshots.py --shared "$shared" --out docs --size 1600x900
else
    echo "no $shared: the gallery and Analysis panel screenshots are not redone" >&2
fi
