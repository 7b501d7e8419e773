"""``metrics.core.records.dataclass``: the standard dataclass, its generated code cached."""

from __future__ import annotations

import dataclasses
import marshal
import os
import subprocess
import sys
from pathlib import Path

import pytest

import metrics.core.records as records
from metrics.core.records import dataclass


@dataclass(frozen=True)
class _Frozen:
    """A frozen record with defaults and a factory."""

    a: int
    b: str = "x"
    c: tuple[int, ...] = dataclasses.field(default_factory=tuple)


@dataclass
class _Plain:
    """A mutable record."""

    n: int
    m: float = 0.5


def test_same_behaviour_as_the_standard_dataclass() -> None:
    r = _Frozen(1)
    assert r == _Frozen(1, "x", ())
    assert r != _Frozen(2)
    assert hash(r) == hash(_Frozen(1))
    assert repr(r) == "_Frozen(a=1, b='x', c=())"
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.a = 3  # type: ignore[misc]
    assert [f.name for f in dataclasses.fields(r)] == ["a", "b", "c"]
    assert dataclasses.replace(r, b="y").b == "y"
    assert dataclasses.asdict(_Plain(2)) == {"n": 2, "m": 0.5}
    p = _Plain(1)
    p.n = 4
    assert p.n == 4
    assert "exec" not in vars(dataclasses)  # the standard module is left as it was


def _tree(tmp_path: Path) -> tuple[Path, Path]:
    """A package tree holding only ``metrics.core.records`` (its own ``__pycache__``)."""
    tree = tmp_path / "tree"
    pkg = tree / "metrics" / "core"
    pkg.mkdir(parents=True)
    (tree / "metrics" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "records.py").write_text(Path(records.__file__).read_text())
    return tree, pkg


def test_the_cache_is_written_read_and_survives_a_bad_file(tmp_path: Path) -> None:
    """A fresh interpreter writes the cache; the next reads it; a corrupt file is ignored."""
    tree, pkg = _tree(tmp_path)
    script = (
        "from metrics.core.records import dataclass\n"
        "@dataclass(frozen=True)\n"
        "class P:\n    x: int\n    y: int = 2\n"
        "assert P(1) == P(1, 2) and repr(P(3)) == 'P(x=3, y=2)'\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(tree)

    def run() -> None:
        subprocess.run([sys.executable, "-c", script], env=env, check=True, cwd=tree)

    run()
    caches = list((pkg / "__pycache__").glob("records.*.dataclass-code"))
    assert len(caches) == 1
    sections = marshal.loads(caches[0].read_bytes())
    assert list(sections) == ["__main__"]  # one section per module that made a class
    codes = marshal.loads(sections["__main__"])
    assert any("def __init__(self,x:_type_x,y:_type_y=" in k for k in codes), list(codes)[:2]
    assert oct(caches[0].stat().st_mode & 0o777) != oct(0o600)  # readable as byte code is
    run()  # reads it
    caches[0].write_bytes(b"not marshal data")
    run()  # compiles again, rewrites it
    assert isinstance(marshal.loads(caches[0].read_bytes()), dict)


def test_nothing_written_without_byte_code(tmp_path: Path) -> None:
    tree, _ = _tree(tmp_path)
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1")
    script = "from metrics.core.records import dataclass\n@dataclass\nclass Q:\n    z: int\n"
    subprocess.run([sys.executable, "-c", script], env=env, check=True, cwd=tree)
    assert not list(tree.rglob("*.dataclass-code"))
