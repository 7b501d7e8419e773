"""Issue 30, points 1 and 2: outputs stay inside the folder named, never replace an input,
a device node, a FIFO or a link; ``/dev/stdout`` writes to the standard output; a failed
write names its path."""

from __future__ import annotations

import errno
import json
import os
import socket
import zipfile
from pathlib import Path

import pytest

from metrics.cli.main import main
from metrics.io.atomic import OutputError, atomic_file, atomic_write, staged, target_kind
from metrics.io.outnames import UnsafeName, safe_name, sample_files, unique_names
from tests.metrics.io.formats_support import write

QUAD = [[10, 10], [50, 10], [50, 30], [10, 30]]


def _doc(*ids: str) -> dict[str, object]:
    box = {"points": QUAD, "box_type": "QUAD", "text": "ab"}
    return {
        "format": "detlens",
        "version": 1,
        "samples": [{"id": i, "gt": [box], "det": [box]} for i in ids],
    }


@pytest.mark.parametrize(
    "sid", ["../../escape", "/abs/path/x", "..", ".", "a\\b", "a\x1b[31mred", "C:evil", ".hidden"]
)
def test_safe_name_stays_one_plain_name(sid: str) -> None:
    name = safe_name(sid)
    assert "/" not in name and "\\" not in name and name not in (".", "..")
    assert not name.startswith(".") and "\x1b" not in name
    assert Path("/out", name).parent == Path("/out")


@pytest.mark.parametrize("sid", ["", "   ", "x" * 300])
def test_safe_name_refuses_what_cannot_be_made_safe(sid: str) -> None:
    with pytest.raises(UnsafeName):
        safe_name(sid)


def test_two_ids_with_one_name_are_refused() -> None:
    with pytest.raises(UnsafeName, match="both"):
        unique_names(["a/b", "a_b"])


def test_a_name_equal_to_an_input_is_refused(tmp_path: Path) -> None:
    src = write(tmp_path, "gt.json", "{}")
    with pytest.raises(UnsafeName, match="input"):
        sample_files(tmp_path, ["gt"], (".png", ".json"), [str(src)])


@pytest.mark.parametrize("kind", ["fifo", "dangling", "link", "socket", "folder", "devnull"])
@pytest.mark.parametrize("command", ["eval", "check", "compare", "convert"])
def test_outputs_never_replace_nodes_or_links(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str, command: str
) -> None:
    target = tmp_path / "out.json"
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "dangling":
        target.symlink_to(tmp_path / "nowhere.json")
    elif kind == "link":
        (tmp_path / "real.json").write_text("keep")
        target.symlink_to(tmp_path / "real.json")
    elif kind == "folder":
        target.mkdir()
    elif kind == "socket":
        sock = socket.socket(socket.AF_UNIX)
        sock.bind(str(target))
        sock.close()
    else:  # a real device, only where the old code could not replace it (not as root)
        if os.geteuid() == 0 or _is_std(os.devnull):
            pytest.skip("as root, the code before this fix would replace /dev/null")
        target = Path(os.devnull)
    before = os.lstat(target)
    gt = write(tmp_path, "in.json", _doc("img_1"))
    argv = {
        "eval": ["eval", "--gt", str(gt), "--det", str(gt), "--metric", "iou", "--json"],
        "check": ["check", "--gt", str(gt), "--json"],
        "compare": ["compare", "--gt", str(gt), "--det", str(gt), "--det", str(gt), "--json"],
        "convert": ["convert", "--gt", str(gt), "--to", "json"],
    }[command]
    assert main([*argv, str(target)]) == 2
    err = capsys.readouterr().err
    assert str(target) in err and len(err.strip().splitlines()) == 1, err
    after = os.lstat(target)
    assert (after.st_mode, after.st_ino) == (before.st_mode, before.st_ino)
    assert not (tmp_path / "nowhere.json").exists()
    if kind == "link":
        assert (tmp_path / "real.json").read_text() == "keep"


def _is_std(path: str) -> bool:
    st = os.stat(path)
    return any(
        (st.st_dev, st.st_ino) == (os.fstat(fd).st_dev, os.fstat(fd).st_ino) for fd in (1, 2)
    )


def _stdout_link(tmp_path: Path) -> Path:
    """A link to this process's standard output, as /dev/stdout is, inside ``tmp_path``: code
    that replaces it (the code before this fix, run as root) breaks nothing outside."""
    link = tmp_path / "stdout"
    link.symlink_to("/proc/self/fd/1")
    return link


def test_dev_stdout_writes_to_standard_output(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    assert target_kind("/dev/stdout") == "stdout"  # only looked at, never written here
    link = _stdout_link(tmp_path)
    assert main(["eval", "--metric", "iou", "--quiet", "--json", str(link)]) == 0
    out = capfd.readouterr().out
    assert json.loads(out)["metric"] == "ic15_iou" and link.is_symlink()


def test_stage_to_stdout_and_a_file(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    link = _stdout_link(tmp_path)
    with staged(link, tmp_path / "b.csv") as (a, b):
        a.write_text("to stdout\n")
        b.write_text("to file\n")
    assert capfd.readouterr().out == "to stdout\n" and link.is_symlink()
    assert (tmp_path / "b.csv").read_text() == "to file\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.csv", "stdout"]


def test_a_full_disk_names_the_path(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    with pytest.raises(OutputError, match=str(target)), atomic_file(target):
        raise OSError(errno.ENOSPC, "No space left on device")
    assert not list(tmp_path.iterdir())  # no temporary file left


def test_a_missing_folder_names_the_path(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    with pytest.raises(OutputError, match="file"):
        atomic_write(tmp_path / "file" / "out.json", "{}")


def test_convert_icdar_names_members_safely(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gt = write(tmp_path / "deep" / "er", "in.json", _doc("../../escape", "/abs/x", "ok"))
    out = tmp_path / "o.zip"
    assert main(["convert", "--gt", str(gt), "--det", str(gt), "--to", "icdar", str(out)]) == 0
    names = zipfile.ZipFile(out).namelist()
    assert all("/" not in n and not n.startswith(".") for n in names), names
    assert "gt_ok.txt" in names and "replaced by _" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == ["in.json", "o.zip"]


def test_convert_on_a_link_loop_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    out = str(tmp_path / "o.json")
    assert main(["convert", "--gt", str(tmp_path / "a"), "--to", "json", out]) == 2
    err = capsys.readouterr().err
    assert "loop" in err and "Traceback" not in err
