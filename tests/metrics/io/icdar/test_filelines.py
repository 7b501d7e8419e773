"""A whole file at once (``metrics.io.icdar.filelines``) reads every line as the line parser does.

The file reader converts all coordinates in one array and falls back to the line parser for
files with unusual coordinates; either way each line must give the same instance (points,
type, text, confidence, flags) or the same error message as ``parse_gt_line`` /
``parse_det_line`` on that line alone.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.core.model import BoxType, Instance
from metrics.io.archive import Line, Member, decode
from metrics.io.icdar.filelines import parse_det_file, parse_gt_file, plain_quads, scan_plain
from metrics.io.icdar.grammar import box_hint
from metrics.io.icdar.lines import DetSchema, LineError, parse_det_line, parse_gt_line

INT = st.integers(-50, 2000).map(str)
NUMBER = st.one_of(
    INT,
    st.floats(-50, 2000, allow_nan=False).map(lambda v: f"{v:.2f}"),
    st.sampled_from([" 12 ", "1e3", "+5", "nan", "inf", "9" * 12, "-0", "x", ""]),
)
TAIL = st.sampled_from(
    ["", ",###", ",word", ',"quoted, text"', ",0.95", ",1", ",0.5,word", ",12,34", ",", ",a,b"]
)
BOX_TYPES = st.sampled_from([None, BoxType.LTRB, BoxType.QUAD, BoxType.POLY])
SCHEMAS = st.builds(DetSchema, confidence=st.booleans(), transcription=st.booleans())


@st.composite
def lines(draw: st.DrawFn, plain: bool) -> list[Line]:
    """A file's lines: mostly integer boxes (so the one-array path runs), some odd ones."""
    out = []
    for k in range(draw(st.integers(0, 6))):
        n = draw(st.sampled_from([4, 8, 8, 8, 12, 14, 3, 2, 9]))
        nums = draw(st.lists(INT if plain else NUMBER, min_size=n, max_size=n))
        out.append(Line(k + 1, ",".join(nums) + draw(TAIL)))
    return out


def _same(a: Instance | LineError, b: Instance | LineError) -> None:
    if isinstance(b, LineError):
        assert isinstance(a, LineError) and str(a) == str(b)
        return
    assert isinstance(a, Instance), a
    assert a.points.dtype == b.points.dtype and a.points.shape == b.points.shape
    assert np.array_equal(a.points, b.points)
    assert (a.box_type, a.text, a.confidence, a.dont_care, a.line, a.integer) == (
        b.box_type,
        b.text,
        b.confidence,
        b.dont_care,
        b.line,
        b.integer,
    )


def _one(parse: object, *args: object) -> Instance | LineError:
    try:
        return parse(*args)  # type: ignore[operator,no-any-return]
    except LineError as exc:
        return exc


@settings(max_examples=300, deadline=None)
@given(st.booleans().flatmap(lines), BOX_TYPES)
def test_gt_file_reads_each_line_as_the_line_parser(file: list[Line], bt: BoxType | None) -> None:
    hint = box_hint(ln.text for ln in file) if bt is None else 0
    for got, ln in zip(parse_gt_file(file, bt), file, strict=True):
        _same(got, _one(parse_gt_line, ln.text, ln.number, bt, hint))


@settings(max_examples=300, deadline=None)
@given(st.booleans().flatmap(lines), SCHEMAS, BOX_TYPES)
def test_det_file_reads_each_line_as_the_line_parser(
    file: list[Line], schema: DetSchema, bt: BoxType | None
) -> None:
    hint = box_hint(ln.text for ln in file) if bt is None and schema.transcription else 0
    for got, ln in zip(parse_det_file(file, schema, bt), file, strict=True):
        _same(got, _one(parse_det_line, ln.text, ln.number, schema, bt, hint))


def test_a_bad_line_stays_located_and_the_others_are_read() -> None:
    file = [
        Line(1, "0,0,10,0,10,5,0,5,hello"),
        Line(2, "1,2,3"),  # too few numbers: its own error, the others still read
        Line(4, '5,5,9,5,9,8,5,8,"###"'),
    ]
    got = parse_gt_file(file)
    assert isinstance(got[0], Instance) and isinstance(got[2], Instance)
    assert isinstance(got[1], LineError)
    assert got[2].dont_care and got[2].line == 4
    assert got[0].points.tolist() == [[0, 0], [10, 0], [10, 5], [0, 5]]
    assert got[0].points.dtype == np.float64 and got[0].points.shape == (4, 2)


def test_ltrb_boxes_become_quads_and_a_reversed_one_is_refused_by_the_line_parser() -> None:
    good = parse_gt_file([Line(1, "1,2,5,6,a"), Line(2, "0,0,3,4,b")])
    assert [g.points.tolist() for g in good if isinstance(g, Instance)] == [
        [[1, 2], [5, 2], [5, 6], [1, 6]],
        [[0, 0], [3, 0], [3, 4], [0, 4]],
    ]
    mixed = parse_gt_file([Line(1, "1,2,5,6,a"), Line(2, "9,0,3,4,b")])
    assert isinstance(mixed[0], Instance)
    assert isinstance(mixed[1], LineError) and "xmax < xmin" in str(mixed[1])


def test_det_confidences_are_read_in_the_one_array_path() -> None:
    got = parse_det_file(
        [Line(1, "0,0,4,0,4,4,0,4,0.75"), Line(2, "1,1,5,1,5,5,1,5,1")], DetSchema(confidence=True)
    )
    assert [g.confidence for g in got if isinstance(g, Instance)] == [0.75, 1.0]


PLAIN_TAIL = st.sampled_from(
    ["", ",###", ",word", ',"q, t"', ",0.95", ",1", ",0.5,w", ",12,34", ",", ", 7x", ",é"]
)


@st.composite
def plain_files(draw: st.DrawFn) -> bytes:
    """Files of integer QUAD, LTRB or polygon lines with assorted tails, line ends and stray
    bytes."""
    rows = []
    width = draw(st.sampled_from([8, 8, 4, 14, 28]))
    for _ in range(draw(st.integers(1, 6))):
        fields = st.sampled_from(["0", "-0", "7", " 12", "-3 ", "1999"])
        n = draw(st.sampled_from([width, width, 4, 8, 9, 10, 2, 3]))
        rows.append(",".join(draw(st.lists(fields, min_size=n, max_size=n))) + draw(PLAIN_TAIL))
    text = "\n".join(rows) + draw(st.sampled_from(["", "\n", "\n\n", "\r\n"]))
    if draw(st.booleans()):
        text = text.replace("\n", "\r\n")
    return draw(st.sampled_from([b"", b"\xef\xbb\xbf"])) + text.encode()


def _split(data: bytes) -> list[Line]:
    return decode(Member("f.txt", "f.txt", data)).split([])


def _plain(
    data: bytes, bt: BoxType | None, schema: DetSchema | None = None
) -> list[Instance] | None:
    """``plain_quads`` of a file's bytes: decoded, scanned, read; None when not plain."""
    scan = scan_plain(decode(Member("f.txt", "f.txt", data)))
    return None if scan is None else plain_quads(scan, bt, schema)


@settings(max_examples=300, deadline=None)
@given(plain_files(), BOX_TYPES)
def test_plain_gt_files_read_as_the_line_parser(data: bytes, bt: BoxType | None) -> None:
    got = _plain(data, bt)
    if got is None:
        return  # read line by line instead
    lines = _split(data)
    assert len(got) == len(lines)
    for g, ln in zip(got, lines, strict=True):
        _same(g, _one(parse_gt_line, ln.text, ln.number, bt))


@settings(max_examples=300, deadline=None)
@given(plain_files(), SCHEMAS, BOX_TYPES)
def test_plain_det_files_read_as_the_line_parser(
    data: bytes, schema: DetSchema, bt: BoxType | None
) -> None:
    got = _plain(data, bt, schema)
    if got is None:
        return
    lines = _split(data)
    assert len(got) == len(lines)
    for g, ln in zip(got, lines, strict=True):
        _same(g, _one(parse_det_line, ln.text, ln.number, schema, bt))


def test_the_plain_path_takes_ordinary_files_and_leaves_the_rest() -> None:
    gt = b'0,0,10,0,10,5,0,5,hello\n1,1,4,1,4,4,1,4,###\n-0,2,3,2,3,3,0,3,"x, y"\n'
    got = _plain(gt, None)
    assert got is not None and [g.text for g in got] == ["hello", "###", "x, y"]
    assert got[1].dont_care and [g.line for g in got] == [1, 2, 3]
    assert str(got[2].points[0, 0]) == "-0.0"  # as float("-0")
    det = b"0,0,10,0,10,5,0,5,0.9\n1,1,4,1,4,4,1,4,1\n"
    scored = _plain(det, None, DetSchema(confidence=True))
    assert scored is not None and [d.confidence for d in scored] == [0.9, 1.0]
    assert _plain(det, None, DetSchema()) is None  # no confidences: the line parser says
    assert _plain(b"0,0,10,0,10,5,0,5,a\n\n1,1,4,1,4,4,1,4,b\n", None) is None  # line 3
    poly = _plain(b"0,0,10,0,10,5,0,5,7,8,a\n", None)  # more numbers: a polygon
    assert poly is not None and poly[0].box_type is BoxType.POLY and poly[0].text == "a"
    _same(poly[0], parse_gt_line("0,0,10,0,10,5,0,5,7,8,a", 1))
    assert _plain(b"0,0,10,0,10,5,0,5,7,8,9\n", None) is None  # odd: the parser decides
    assert _plain(b"0,0,10,0,10,5,0,5,a\r1,1,4,1,4,4,1,4,b\r", None) is None  # CR only
    ltrb = _plain(b'38, 43, 920, 215, "Tiredness"\r\n', None)
    assert ltrb is not None and ltrb[0].box_type is BoxType.LTRB and ltrb[0].text == "Tiredness"
    assert ltrb[0].points.tolist() == [[38, 43], [920, 43], [920, 215], [38, 215]]
    assert _plain(b"9,0,3,4,a\n", None) is None  # xmax < xmin: the line parser says
    assert _plain(b"1,2,3,4,a\n", BoxType.QUAD) is None


@settings(max_examples=300, deadline=None)
@given(plain_files())
def test_scanning_skips_a_pattern_only_when_its_first_line_rules_it_out(data: bytes) -> None:
    """``scan_plain`` tries the whole-file QUAD / LTRB scan only when the first line fits:
    the same scan as trying every pattern over the whole text."""
    from metrics.io.icdar import filelines

    fast = filelines.scan_plain(decode(Member("f.txt", "f.txt", data)))
    real = filelines._first_fits
    filelines._first_fits = lambda pattern, text: True  # type: ignore[assignment]
    try:
        slow = filelines.scan_plain(decode(Member("f.txt", "f.txt", data)))
    finally:
        filelines._first_fits = real
    assert fast == slow


FIELD = st.one_of(
    st.integers(-3000, 3000).map(str),
    st.sampled_from(["-0", "0", "-00", "007", "999999999", "1000000001", "-1000000001"]),
    st.sampled_from(["9" * 25, "-" + "9" * 25, "18446744073709551617"]),  # beyond 64 bits
)
BLANK = st.sampled_from(["", " ", "\t", "  ", "\f", "\v"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(BLANK, FIELD, BLANK), max_size=40))
def test_scanned_fields_parse_as_each_integer_alone(fields: list[tuple[str, str, str]]) -> None:
    """``scanned_floats`` (one numpy parse of the joined text, for the fields a scan regex
    took) gives ``int_floats``'s floats, signs of zero included, and None where it does (a
    number beyond ``COORD_LIMIT``, or too long for 64 bits)."""
    from metrics.io.icdar.plainpoly import int_floats, scanned_floats

    flat = [a + v + b for a, v, b in fields]
    got, want = scanned_floats(",".join(flat), len(flat)), int_floats(flat)
    if want is None:
        assert got is None
    else:
        assert got is not None
        assert got.tolist() == want.tolist()
        assert [str(x) for x in got] == [str(x) for x in want]  # -0.0 stays -0.0
