"""CLEval quirks: float32 area precision (Q7), set iteration order in E2E (Q8), don't-care
character centres before the cut (Q11), uniqueness with don't-care dets, LTRB, confidence order,
three-way splits in E2E and the paper recognition-score denominator."""

from __future__ import annotations

import numpy as np
import pytest

from metrics.cleval.metric import (
    ClevalLegacyParams,
    evaluate_sample,
    global_extras,
)
from metrics.core.model import BoxType, Instance
from metrics.core.results import Verdict
from tests.support import CLEVAL_LEGACY as LEGACY
from tests.support import CLEVAL_V011 as V011
from tests.support import WORD_G0 as G0
from tests.support import approx_tuple as approx
from tests.support import dets, gts, quad, run_one, sample


def test_q7_float32_area_precision() -> None:
    """ap = 0.299999999 is below 0.3 in float64 but rounds to float32(0.3)."""
    s = sample(
        gts(("0,0,299999999,0,299999999,1,0,1", "A")), dets("0,0,1000000000,0,1000000000,1,0,1")
    )
    assert evaluate_sample(s, V011).recall == 1.0
    assert run_one("cleval_legacy_det", s, ClevalLegacyParams(area_precision=0.3)).recall == 0.0


def test_q8_set_iteration_order_in_e2e() -> None:
    """Valid GTs {5, 9} iterate 9 first in 0.1.1: GT 9 consumes the merged det's text."""
    far = [
        (f"{1000 + 200 * k},0,{1100 + 200 * k},0,{1100 + 200 * k},20,{1000 + 200 * k},20", "###")
        for k in range(8)
    ]
    items = [*far[:5], ("0,0,40,0,40,20,0,20", "AB"), *far[5:], ("60,0,100,0,100,20,60,20", "AB")]
    s = sample(gts(*items), [quad("0,0,100,0,100,20,0,20", "AB", 1)])
    new = run_one("cleval_e2e", s, V011)
    old = run_one("cleval_legacy_e2e", s, LEGACY)
    assert [x.gt for x in new.evidence.e2e] == [9, 5]
    assert [x.gt for x in old.evidence.e2e] == [5, 9]
    assert [x.lcs_len for x in new.evidence.e2e] == [2, 0]
    assert new.gt[9].values["lcs"] == 2 and new.gt[5].values["lcs"] == 0


def test_q11_dc_pccs_computed_before_the_cut() -> None:
    """A dc GT overlapping a care GT keeps PCCs there; its cut polygon has no area there."""
    s = sample(
        gts(("0,0,100,0,100,20,0,20", "ABCDE"), ("0,0,200,0,200,20,0,20", "###")),
        dets("0,0,100,0,100,20,0,20"),
    )
    r = evaluate_sample(s, V011)
    np.testing.assert_array_equal(r.evidence.pcc.points[1][:, 0], np.arange(10, 200, 20))
    assert r.det[0].verdict is Verdict.MATCHED  # ap vs the cut dc GT = 0: not absorbed
    assert r.evidence.dc_det_rule == {}
    assert (r.recall, r.precision) == approx(1.0, 1.0)


def test_one_to_one_uniqueness_counts_dont_care_dets() -> None:
    """Det 1 is absorbed by the cut dc GT (1000/3000 >= 0.3) but still blocks GT 0's OO."""
    s = sample(
        gts(("0,0,100,0,100,20,0,20", "ABCDE"), ("0,0,200,0,200,20,0,20", "###")),
        dets("0,0,100,0,100,20,0,20", "0,0,150,0,150,20,0,20"),
    )
    r = evaluate_sample(s, V011)
    assert (r.det[1].verdict, r.det[1].absorbed_by) == (Verdict.DONT_CARE, 1)
    assert r.gt[0].verdict is Verdict.MISSED
    assert r.det[0].verdict is Verdict.FALSE_POSITIVE
    assert r.matches == ()
    assert (r.recall, r.precision) == approx(0.0, 0.0)


def test_ltrb_boxes_are_quads() -> None:
    g = Instance(
        points=np.array([[0, 0], [100, 0], [100, 20], [0, 20]], float),
        box_type=BoxType.LTRB,
        text="ABCDE",
        line=1,
    )
    d = Instance(
        points=np.array([[0, 0], [60, 0], [60, 20], [0, 20]], float), box_type=BoxType.LTRB, line=1
    )
    assert evaluate_sample(sample([g], [d]), V011).recall == pytest.approx(0.6)


def test_confidence_order_reported_in_file_indices() -> None:
    """Dets are evaluated by descending confidence; every index in the result is a file index."""
    s = sample(
        gts(G0),
        [
            quad("300,0,400,0,400,20,300,20", None, 1, 0.2),
            quad("0,0,60,0,60,20,0,20", None, 2, 0.9),
        ],
    )
    r = evaluate_sample(s, V011)
    assert [d.index for d in r.det] == [0, 1]
    assert r.det[1].verdict is Verdict.MATCHED and r.det[0].verdict is Verdict.FALSE_POSITIVE
    assert r.matches[0].det == (1,)
    assert r.gt[0].partners == (1,)
    assert r.evidence.pcc.hit_by[0][:3] == ((1,), (1,), (1,))


def test_split_three_ways_e2e_drops_extra_det() -> None:
    """Three dets share the only PCC of a 1-char GT: only two are ordered (spec 5.6 a)."""
    box = "0,0,20,0,20,20,0,20"
    s = sample(gts((box, "A")), [quad(box, "A", 1), quad(box, "A", 2), quad(box, "A", 3)])
    e = run_one("cleval_e2e", s, V011)
    assert e.evidence.e2e[0].dets == (0, 1)
    assert e.evidence.e2e[0].text == "AA"
    assert e.evidence.consumed == {0: "A", 1: "", 2: ""}
    assert e.tally["gran_r"] == 2


def test_rs_paper_denominator() -> None:
    """RS paper: max(PCCs in the det, len(text)); official: len(text)."""
    s = sample(gts(G0), [quad("0,0,100,0,100,20,0,20", "ABC", 1)])
    official = run_one("cleval_legacy_e2e", s, LEGACY)
    paper = run_one("cleval_legacy_e2e", s, ClevalLegacyParams(rs="paper"))
    assert official.extra["recognition_score"] == 1.0
    assert paper.extra["recognition_score"] == pytest.approx(3 / 5)
    assert global_extras([paper])["recognition_score"] == pytest.approx(3 / 5)
