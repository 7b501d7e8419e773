"""``read_planned``: reading a paired ICDAR set in runs of any size gives the dataset
``load_dataset`` gives (samples, and problems in the same order)."""

from __future__ import annotations

from pathlib import Path

import pytest

from metrics.io.formats.detect import detect
from metrics.io.icdar.plan import LoadOptions, find_schema, plan_icdar
from metrics.io.reader import load_dataset, read_planned
from tests.support import write_dir

GOOD = "0,0,10,0,10,10,0,10,word\n"


@pytest.mark.parametrize("run", [1, 2, 3, 7, None])
def test_runs_of_any_size_give_the_loaded_dataset(tmp_path: Path, run: int | None) -> None:
    gt: dict[str, str | bytes] = {f"gt_img_{k}.txt": GOOD for k in range(1, 8)}
    gt["gt_img_2.txt"] = "1,2,3,abc\n" + GOOD  # a located error
    gt["gt_img_4.txt"] = "0,0,10,0,0,10,10,10,bowtie\n"  # a geometry warning
    det: dict[str, str | bytes] = {f"res_img_{k}.txt": "1,0,10,0,10,10,1,10\n" for k in range(1, 8)}
    det["res_img_5.txt"] = b"\xff1,1,5,1,5,5,1,5\n"  # not UTF-8 (schema problem, said once)
    det["res_other.txt"] = "1,1,5,1,5,5,1,5\n"  # matches no GT file
    g, d = write_dir(tmp_path / "gt", gt), write_dir(tmp_path / "det", det)
    opts = LoadOptions()
    plan = plan_icdar(g, d, detect(g, "gt"), detect(d, "det"), None, None, opts)
    got = read_planned(plan, find_schema(plan.det_members, opts), run=run)
    want = load_dataset(g, d)
    assert got.problems == want.problems
    assert len(got.problems) >= 4
    assert any("UTF-8" in p.message for p in got.problems)
    assert [s.id for s in got] == [s.id for s in want]
    for a, b in zip(got, want, strict=True):
        assert [(i.points.tolist(), i.text, i.line) for i in a.gt] == [
            (i.points.tolist(), i.text, i.line) for i in b.gt
        ]
        assert [(i.points.tolist(), i.confidence) for i in a.det] == [
            (i.points.tolist(), i.confidence) for i in b.det
        ]
