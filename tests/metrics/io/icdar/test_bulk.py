"""Many files at once (``metrics.io.icdar.bulk``) give each file what its own call gives.

The joined scans, checks and parses must not let one file change another's outcome: each
file's scan, instances (None included) and schema evidence are compared with
``scan_plain`` / ``plain_quads`` / ``plain_det_shape`` on that file alone.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.core.model import BoxType, Instance
from metrics.io.archive import Member, decode
from metrics.io.icdar.bulk import det_shapes, plain_many, scan_many
from metrics.io.icdar.filelines import plain_det_shape, plain_quads, scan_plain
from metrics.io.icdar.grammar import DetSchema
from tests.metrics.io.icdar.test_filelines import BOX_TYPES, SCHEMAS, plain_files

FILES = st.lists(
    st.one_of(
        plain_files(),
        st.sampled_from(
            [
                b"",
                b"\n",
                b"1,2,3,4,5,6,7,8,0.5\n",
                b"1,2,3,4,5,6,7,8\n",
                b"1,2,3,4,5,6,7,8,\n",
                b"1,2,5,6,word\n",
                b"1,2,3,4,5,6,7,8,9,10,###\n",
                b"99999999999,2,3,4,5,6,7,8,a\n",
                b"1,2,3,4,5,6,7,8,\xff\n",
                b"1,2,3,4,5,6,7,8,9,10,11,12,a\n1,2,3,4,5,6,7,8,9,10,0.5\n",
                b"5,5,1,1,9,9,a\n-0,0,4,0,4,4,0,4,9,9,b\n",
                b"1,2,###\n1,2,abc\n3,4,5,6,7,8,9,10,11,12,c\n",
                b"1,2,3,4,5,6,7,8,9,10,11,12,1.5\n",
                b"1,2,3,4,5,6,7,8,9\n",
                b"1,2,3,4,5,6,7,8,9,10,11,12,13,14\n1,2,3,4,5,6\n",
            ]
        ),
    ),
    max_size=8,
)


def _same(a: list[Instance] | None, b: list[Instance] | None) -> None:
    assert (a is None) == (b is None)
    if a is None or b is None:
        return
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        assert x.points.dtype == y.points.dtype and x.points.shape == y.points.shape
        assert np.array_equal(x.points, y.points)
        assert str(x.points.tolist()) == str(y.points.tolist())  # signs of zero too
        assert (x.box_type, x.text, x.confidence, x.dont_care, x.line, x.integer, x.attrs) == (
            y.box_type,
            y.text,
            y.confidence,
            y.dont_care,
            y.line,
            y.integer,
            y.attrs,
        )


def _decoded(files: list[bytes]) -> list:  # type: ignore[type-arg]
    return [decode(Member(f"f{k}.txt", f"f{k}.txt", d)) for k, d in enumerate(files)]


@settings(max_examples=300, deadline=None)
@given(FILES, st.one_of(st.none(), SCHEMAS), BOX_TYPES)
def test_many_files_read_as_each_alone(
    files: list[bytes], schema: DetSchema | None, bt: BoxType | None
) -> None:
    decoded = _decoded(files)
    scans = scan_many(decoded)
    assert scans == [scan_plain(d) for d in decoded]
    got = plain_many(scans, bt, schema)
    for scan, one in zip(scans, got, strict=True):
        _same(one, None if scan is None else plain_quads(scan, bt, schema))
    shapes = det_shapes(scans)
    assert shapes == [None if s is None else plain_det_shape(s) for s in scans]


def test_one_odd_file_leaves_the_others_read_together() -> None:
    files = [b"1,2,3,4,5,6,7,8,a\n", b"1,2,3,4,5,6,7,8,9,10,b\n", b"0,0,4,4,###\n"]
    got = plain_many(scan_many(_decoded(files)), None)
    assert [None if g is None else [i.box_type for i in g] for g in got] == [
        [BoxType.QUAD],
        [BoxType.POLY],
        [BoxType.LTRB],
    ]
    files = [b"1,2,3,4,5,6,7,8,0.5\n", b"1,2,3,4,5,6,7,8\n"]  # with and without confidences
    got = plain_many(scan_many(_decoded(files)), None, DetSchema(confidence=True))
    assert [[i.confidence for i in g or ()] for g in got] == [[0.5], [None]]
