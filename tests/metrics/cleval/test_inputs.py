"""CLEval parameters and validation: E2E needs transcriptions, short polygons warn, the
legacy orientation check (equal to the RRC helper), unknown switch values refused."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.cleval.metric import (
    ClevalLegacyParams,
    ClevalParams,
    validate,
    validate_batch,
    validate_batch_e2e,
    validate_e2e,
)
from metrics.core.model import Severity
from metrics.shapes.order import clockwise_violations
from tests.support import CLEVAL_LEGACY as LEGACY
from tests.support import CLEVAL_V011 as V011
from tests.support import WORD_D60 as D60
from tests.support import WORD_G0 as G0
from tests.support import cleval_poly as poly
from tests.support import dets, gts, quad, sample


def test_validate_e2e_needs_transcriptions() -> None:
    s = sample(gts(G0), dets(D60))
    assert validate(s, V011) == []
    problems = validate_e2e(s, V011)
    assert [(p.severity, p.source, p.line, p.sample_id) for p in problems] == [
        (Severity.ERROR, "det:res_img_1.txt", 1, "img_1")
    ]


def test_validate_poly_short_and_legacy_orientation() -> None:
    s = sample([poly("0,0,10,0,10,5", "###", 3)], [poly("0,0,5,0,10,0,10,5,5,5,0,5", None)])
    assert [(p.severity, p.line) for p in validate(s, V011)] == [(Severity.WARNING, 3)]
    ccw = sample(gts(("0,0,0,20,100,20,100,0", "ABCDE")), [])
    assert [p.severity for p in validate(ccw, LEGACY)] == [Severity.ERROR]
    assert validate(ccw, V011) == []
    assert validate(ccw, ClevalLegacyParams(check_orientation=False)) == []


def test_params_reject_unknown_switch_values() -> None:
    with pytest.raises(ValueError):
        ClevalParams(fp_chars="estimate")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        ClevalLegacyParams(rs="other")  # type: ignore[arg-type]


_POINT = st.tuples(st.integers(-6, 6), st.integers(-6, 6))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(_POINT, min_size=4, max_size=4), min_size=1, max_size=6), st.data())
def test_orientation_check_matches_rrc_helper(
    boxes: list[list[tuple[int, int]]], data: st.DataObject
) -> None:
    items = [quad(",".join(f"{x},{y}" for x, y in b), "ab", n) for n, b in enumerate(boxes, 1)]
    k = data.draw(st.integers(0, len(items)))
    s = sample(items[:k], items[k:])
    found = [(p.source, p.line) for p in validate(s, LEGACY) if "clockwise" in p.message]
    want = [(s.gt_source, items[i].line) for i in clockwise_violations(items[:k])]
    want += [(s.det_source, items[k + i].line) for i in clockwise_violations(items[k:])]
    assert found == want


def test_validating_many_samples_is_validating_each() -> None:
    """The batch validation (one orientation pass over every QUAD-mode sample) gives each
    sample's problems, in sample order: POLY samples, anticlockwise boxes on both sides,
    a 5-point box in QUAD mode and samples without boxes included."""
    cw, ccw = "0,0,100,0,100,20,0,20", "0,0,0,20,100,20,100,0"
    samples = [
        sample(gts((ccw, "AB"), (cw, "CD")), dets(ccw, cw), sid="img_1"),
        sample([poly("0,0,10,0,10,5", "###", 3)], dets(ccw), sid="img_2"),
        sample(gts((cw, "EF")), dets(cw), sid="img_3"),
        sample(gts(("0,0,10,0,10,5,5,8,0,5", "GH")), dets(ccw), sid="img_4"),
        sample([], [], sid="img_5"),
        sample(gts((cw, "IJ"), (ccw, "KL")), dets(cw, ccw, ccw), sid="img_6"),
    ]
    for params in (LEGACY, V011, ClevalLegacyParams(box_type="QUAD")):
        each = [p for s in samples for p in validate(s, params)]
        assert validate_batch(samples, params) == each
        assert validate_batch_e2e(samples, params) == [
            p for s in samples for p in validate_e2e(s, params)
        ]
    found = [(p.sample_id, p.line) for p in validate_batch(samples, LEGACY) if "clock" in p.message]
    # img_2 and img_4 are POLY samples (auto): no orientation test
    assert found == [("img_1", 1), ("img_1", 1), ("img_6", 2), ("img_6", 2), ("img_6", 3)]
