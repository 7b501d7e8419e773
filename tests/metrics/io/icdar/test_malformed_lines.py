"""Issue 12: the malformed lines strict mode used to accept, and unreadable inputs.

Each case follows the official grammar of spec 0.3 and gives a located error, or, where the
grammar is ambiguous, is read as the official tools read it with a warning.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from metrics.core.model import BoxType, InputError, Severity
from metrics.io.archive import MAX_MB_ENV
from metrics.io.icdar.lines import DetSchema, LineError, parse_det_line, parse_gt_line
from metrics.io.reader import load_dataset

QUAD = "0,0,100,0,100,20,0,20"
CONF = DetSchema(confidence=True)


def test_truncated_quad_is_an_error_without_confidences() -> None:
    with pytest.raises(LineError, match="7 numbers: coordinates come in x,y pairs"):
        parse_det_line("0,0,100,0,100,20,0", 1, DetSchema())


def test_letter_o_among_gt_coordinates_is_an_error() -> None:
    with pytest.raises(LineError):
        parse_gt_line("1O0,0,100,0,100,20,0,20,ABC", 1)


def test_single_point_care_gt_is_an_error_but_dont_care_is_read() -> None:
    with pytest.raises(LineError, match="a care GT needs at least two points"):
        parse_gt_line("1,2,3", 1)
    assert parse_gt_line("50,50,###", 1).dont_care


@pytest.mark.parametrize("conf", ["5", "2", "-0.5", "1e-3"])
def test_confidence_outside_the_official_pattern_is_an_error(conf: str) -> None:
    with pytest.raises(LineError, match="is not a number from 0 to 1"):
        parse_det_line(f"{QUAD},{conf}", 1, CONF)


@pytest.mark.parametrize(("conf", "value"), [("0.95", 0.95), ("1", 1.0), ("0", 0.0)])
def test_confidence_in_the_official_pattern_is_read(conf: str, value: float) -> None:
    assert parse_det_line(f"{QUAD},{conf}", 1, CONF).confidence == value


def test_nan_is_a_word_in_a_gt_but_not_a_detection_number() -> None:
    assert parse_gt_line(f"{QUAD},nan", 1).text == "nan"
    with pytest.raises(LineError):
        parse_det_line(f"{QUAD},nan", 1, DetSchema())


def test_nul_byte_is_an_error() -> None:
    with pytest.raises(LineError, match="NUL byte"):
        parse_gt_line(f"{QUAD},A\x00B", 1)
    with pytest.raises(LineError, match="NUL byte"):
        parse_det_line(f"{QUAD}\x00", 1, DetSchema())


@pytest.mark.parametrize("coord", ["1" * 300, "-2000000000"])
def test_coordinate_beyond_any_image_is_an_error(coord: str) -> None:
    with pytest.raises(LineError, match="no image coordinate"):
        parse_gt_line(f"{coord},0,100,0,100,20,0,20,AB", 1)
    with pytest.raises(LineError):
        parse_det_line(f"0,0,100,0,100,20,0,{coord}", 1, DetSchema())


def _folders(tmp_path: Path, gt: bytes, det: bytes = b"") -> tuple[Path, Path]:
    g, d = tmp_path / "gt", tmp_path / "det"
    g.mkdir()
    d.mkdir()
    (g / "gt_img_1.txt").write_bytes(gt)
    (d / "res_img_1.txt").write_bytes(det)
    return g, d


def test_numeric_transcription_is_read_as_text_with_a_warning(tmp_path: Path) -> None:
    ds = load_dataset(*_folders(tmp_path, f"{QUAD},12,34\n".encode()))
    (gt,) = ds.samples[0].gt
    assert gt.box_type is BoxType.QUAD and gt.text == "12,34"
    (warning,) = ds.warnings
    assert warning.line == 1 and "run of numbers" in warning.message


def test_cr_only_file_is_split_on_cr_with_a_warning(tmp_path: Path) -> None:
    body = f"{QUAD},AB\r10,10,50,10,50,30,10,30,CD\r".encode()
    ds = load_dataset(*_folders(tmp_path, body))
    assert [g.text for g in ds.samples[0].gt] == ["AB", "CD"]
    assert any("CR only" in w.message for w in ds.warnings)
    assert not ds.errors


def test_file_above_the_size_limit_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    g, d = _folders(tmp_path, (f"{QUAD},AB\n" * 40000).encode())
    monkeypatch.setenv(MAX_MB_ENV, "0.5")
    with pytest.raises(InputError, match=f"above the limit of 0 MB.*{MAX_MB_ENV}"):
        load_dataset(g, d)
    monkeypatch.setenv(MAX_MB_ENV, "2")
    assert len(load_dataset(g, d).samples[0].gt) == 40000


def test_zip_member_above_the_size_limit_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import zipfile

    z = tmp_path / "gt.zip"
    with zipfile.ZipFile(z, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("gt_img_1.txt", f"{QUAD},AB\n" * 40000)
    monkeypatch.setenv(MAX_MB_ENV, "0.5")
    with pytest.raises(InputError, match=r"gt\.zip:gt_img_1\.txt.*above the limit"):
        load_dataset(z)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_fifo_as_gt_is_refused_without_reading(tmp_path: Path) -> None:
    fifo = tmp_path / "gt.txt"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="not a regular file"):
        load_dataset(fifo)


def test_dangling_symlink_in_a_folder_is_an_error(tmp_path: Path) -> None:
    g, d = _folders(tmp_path, f"{QUAD},AB\n".encode())
    (d / "res_img_2.txt").symlink_to(tmp_path / "missing.txt")
    with pytest.raises(InputError, match=r"res_img_2\.txt: error: a dangling symbolic link"):
        load_dataset(g, d)


@pytest.mark.skipif(sys.platform == "win32" or os.geteuid() == 0, reason="root reads anything")
def test_unreadable_gt_folder_is_an_input_error(tmp_path: Path) -> None:
    g, d = _folders(tmp_path, f"{QUAD},AB\n".encode())
    g.chmod(0)
    try:
        with pytest.raises(InputError, match="cannot read"):
            load_dataset(g, d)
    finally:
        g.chmod(0o755)


def test_errors_are_located(tmp_path: Path) -> None:
    ds = load_dataset(*_folders(tmp_path, b"1,2,3\n", b"0,0,100,0,100,20,0\n"))
    assert sorted((p.source.rsplit("/", 1)[-1], p.line) for p in ds.errors) == [
        ("gt_img_1.txt", 1),
        ("res_img_1.txt", 1),
    ]
    assert all(p.severity is Severity.ERROR for p in ds.errors)
