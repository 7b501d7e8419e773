"""Readers never crash on garbage: any bytes, any JSON value, forced into any format, give
entries and located problems, never an exception."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.io.archive import Member
from metrics.io.formats import FORMATS, Report

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "points",
                    "polygon",
                    "det_polygons",
                    "det_scores",
                    "data_list",
                    "instances",
                    "imgs",
                    "anns",
                    "imgToAnns",
                    "pages",
                    "blocks",
                    "dimensions",
                    "dt_polys",
                    "annotations",
                    "paragraphs",
                    "lines",
                    "words",
                    "chars",
                    "samples",
                    "format",
                    "gt",
                    "det",
                    "bbox",
                    "img_path",
                    "geometry",
                    "vertices",
                    "res",
                    "predictions",
                ]
            ),
            inner,
            max_size=4,
        )
    ),
    max_leaves=20,
)


def _read_all(data: bytes, name: str) -> None:
    for fmt in FORMATS:
        for role in fmt.roles:
            member = Member(name, name, data)
            fmt.sniff(member, role)
            report = Report(name)
            fmt.read(member, role, report)


@settings(max_examples=150, deadline=None)
@given(json_values)
def test_any_json_value(value: object) -> None:
    _read_all(json.dumps(value).encode(), "x.json")
    _read_all(json.dumps({"format": "detlens", "samples": [value]}).encode(), "y.json")


@settings(max_examples=150, deadline=None)
@given(
    st.binary(max_size=200)
    | st.text(alphabet="0123456789,.-#\t\n x:[]'u\"", max_size=120).map(str.encode)
)
def test_any_bytes(data: bytes) -> None:
    _read_all(data, "gt_1.txt")
