"""Archive members as lines: BOM, CRLF and empty lines; non-UTF-8 bytes are a warning
with the line number."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from metrics.core.model import InputError, Severity
from metrics.io.archive import Member, read_members, split_lines


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


def test_zip_members_are_read_from_the_mapped_archive_as_zipfile_reads_them(
    tmp_path: Path,
) -> None:
    path = tmp_path / "set.zip"
    texts = {"a.txt": b"1,2,3,4,5,6,7,8,x\n", "b.txt": b"0,0,1,0,1,1,0,1,y\n" * 50}
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(zipfile.ZipInfo("a.txt"), texts["a.txt"])  # stored
        z.writestr("b.txt", texts["b.txt"], compress_type=zipfile.ZIP_DEFLATED)
        z.writestr("c.txt", b"", compress_type=zipfile.ZIP_DEFLATED)
    assert {m.name: m.data for m in read_members(path)} == {**texts, "c.txt": b""}
    raw = bytearray(path.read_bytes())
    raw[raw.find(b"1,2,3,4")] = ord("9")  # the stored member no longer matches its CRC
    path.write_bytes(bytes(raw))
    with pytest.raises(InputError, match=r"Bad CRC-32 for file 'a\.txt'"):
        read_members(path)
