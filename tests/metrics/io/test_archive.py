"""Archive members as lines: BOM, CRLF and empty lines; non-UTF-8 bytes are a warning
with the line number."""

from __future__ import annotations

from metrics.io.archive import Member, split_lines
from metrics.model import Severity


def test_bom_crlf_and_empty_lines() -> None:
    m = Member("gt_img_1.txt", "gt:gt_img_1.txt", b"\xef\xbb\xbf1,1,2,2,a\r\n\r\n3,3,4,4,b\r\n")
    lines = split_lines(m, [])
    assert [(ln.number, ln.text) for ln in lines] == [(1, "1,1,2,2,a"), (3, "3,3,4,4,b")]


def test_non_utf8_is_a_warning_with_line_number() -> None:
    problems: list = []
    lines = split_lines(Member("x.txt", "gt:x.txt", b"1,1,2,2,ok\n1,1,2,2,caf\xe9\n"), problems)
    assert lines[1].text == "1,1,2,2,caf\ufffd"
    assert problems[0].severity is Severity.WARNING and problems[0].line == 2
    assert "UTF-8" in problems[0].message
