"""Pairing GT and detection files by sample id from their file names."""

from __future__ import annotations

import pytest

from metrics.io.pairing import IdMatcher, gt_id


@pytest.mark.parametrize(
    ("gt", "other", "sid"),
    [
        ("gt_img_12.txt", "res_img_12.txt", "img_12"),
        ("poly_gt_img7.txt", "img7.txt", "img7"),
        ("1001.txt", "1001.txt", "1001"),
        ("gt_img_3.txt", "res_3.txt", "img_3"),
        ("gt_img_12.txt", "img_12.jpg", "img_12"),
    ],
)
def test_ids_are_paired_from_file_names(gt: str, other: str, sid: str) -> None:
    assert gt_id(gt) == sid
    assert IdMatcher([gt_id(gt), "img_99"]).match(other) == sid
