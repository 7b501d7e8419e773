"""The shape of the code: no import circles anywhere, small modules, params at the bottom.

The import-linter contracts (``lint-imports``) check the layers between packages; this test
parses every module's imports (also those inside functions, and those made through
``importlib``: a string naming a project module, ``"metrics.catalogue.registry"`` or
``"metrics.cli.check:add_check_command"``) and proves that the module graph of ``metrics``
and ``viewer`` has no cycle at all, that every package of the engine has its place in the
layers contract, and that each family's ``params.py`` imports nothing from its family.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("metrics", "viewer")
MAX_LINES = 400


def _modules() -> dict[str, Path]:
    out = {}
    for top in PACKAGES:
        for path in (ROOT / top).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Project modules that ``name`` imports (a name imported from a package counts as its
    submodule when one exists)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_pkg = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            # a module named for importlib (``import_module``, the commands' "module:function")
            target = node.value.partition(":")[0]
            targets = [target] if target in known else []
        elif isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                pkg = name if is_pkg else name.rpartition(".")[0]
                for _ in range(node.level - 1):
                    pkg = pkg.rpartition(".")[0]
                base = f"{pkg}.{base}".strip(".")
            targets = [
                f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names
            ]
        else:
            continue
        for t in targets:
            while t and t not in known:
                t = t.rpartition(".")[0]
            if t and t != name:
                found.add(t)
    return found


def _cycles(graph: dict[str, set[str]]) -> list[str]:
    """Modules on or behind an import cycle: what is left after repeatedly removing the
    modules that import no remaining module (empty when the graph is acyclic)."""
    left = {v: set(e) & set(graph) for v, e in graph.items()}
    while True:
        leaves = {v for v, e in left.items() if not e}
        if not leaves:
            return sorted(left)
        left = {v: e - leaves for v, e in left.items() if v not in leaves}


def _graph() -> dict[str, set[str]]:
    mods = _modules()
    known = set(mods)
    graph = {}
    for name, path in mods.items():
        deps = _imports(name, path, known)
        # a package's __init__ is run by importing any of its submodules; that is not an
        # import the submodule makes, so edges into one's own parent packages are dropped
        graph[name] = {d for d in deps if not name.startswith(d + ".")}
    return graph


def test_the_import_graph_has_no_cycle() -> None:
    assert _cycles(_graph()) == []


def test_imports_through_importlib_count() -> None:
    graph = _graph()
    assert "metrics.catalogue.registry" in graph["metrics"]  # _HOME, via importlib
    assert "metrics.cli.check" in graph["metrics.cli.main"]  # "module:function" commands


def test_every_engine_package_has_a_layer() -> None:
    """A new package (or root module) of ``metrics`` is placed in the layers contract."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "importlinter"
    ]["contracts"]
    layered = [c["layers"] for c in contracts if c["type"] == "layers"]
    named = {
        m.strip()
        for layers in layered
        for layer in layers
        for m in layer.replace("|", ":").split(":")
    }
    for root in ("metrics", "viewer"):
        tops = {".".join(n.split(".")[:2]) for n in _modules() if n.startswith(f"{root}.")}
        if root == "viewer":  # the composition root (app) and the commands sit on top of all
            named |= {"viewer.app", "viewer.export", "viewer.analysis", "viewer.gallery"}
        assert sorted(tops - named - {"metrics.__main__"}) == [], root


def test_the_roots_hold_packages_and_entry_points_only() -> None:
    """``metrics/`` and ``viewer/`` name their roles with packages; loose modules at the
    roots are the entry points only (the Python API and the console script)."""
    loose = sorted(
        p.name
        for root in ("metrics", "viewer")
        for p in (ROOT / root).glob("*.py")
        if p.name != "__init__.py"
    )
    assert loose == ["api.py", "launch.py"]


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}) == [
        "a",
        "b",
        "c",
        "d",
    ]


@pytest.mark.parametrize("name", sorted(_modules()))
def test_modules_stay_small(name: str) -> None:
    lines = len(_modules()[name].read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{name} has {lines} lines (split it)"


@pytest.mark.parametrize("family", ["icdar", "deteval", "tedeval", "cleval", "hiertext"])
def test_params_sit_at_the_bottom_of_their_family(family: str) -> None:
    graph = _graph()
    own = {d for d in graph[f"metrics.{family}.params"] if d.startswith(f"metrics.{family}")}
    assert own == set()


def _public_signatures_with_any(source: str) -> list[str]:
    """``name:line`` of every public function or method (its name and every enclosing
    class's name without a leading ``_``; dunders are public) whose parameter or return
    annotations name ``Any``. Nested functions are private to their function."""
    hits: list[str] = []

    def names_any(node: ast.expr | None) -> bool:
        if node is None:
            return False
        text = ast.unparse(node)
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value  # a string annotation
        return any(
            (isinstance(n, ast.Name) and n.id == "Any")
            or (isinstance(n, ast.Attribute) and n.attr == "Any")
            for n in ast.walk(ast.parse(text, mode="eval"))
        )

    def visit(node: ast.AST, private: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                dunder = child.name.startswith("__") and child.name.endswith("__")
                if not (private or (child.name.startswith("_") and not dunder)):
                    a = child.args
                    params = [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg]
                    annotations = [p.annotation for p in params if p is not None]
                    if any(names_any(x) for x in [*annotations, child.returns]):
                        hits.append(f"{child.name}:{child.lineno}")
                visit(child, True)
            elif isinstance(child, ast.ClassDef):
                visit(child, private or child.name.startswith("_"))
            else:
                visit(child, private)

    visit(ast.parse(source), False)
    return hits


@pytest.mark.parametrize("package", PACKAGES)
def test_no_any_in_a_public_signature(package: str) -> None:
    """The seams of the engine and of the viewer are typed (``MetricSpec[Params]``,
    ``Evaluation[Params]``, ``JSONValue``, ``Subcommands``, Protocols): ``Any`` in no public
    function's parameters or return (issue 27)."""
    found = [
        f"{path.relative_to(ROOT)}:{hit}"
        for path in sorted((ROOT / package).rglob("*.py"))
        for hit in _public_signatures_with_any(path.read_text(encoding="utf-8"))
    ]
    assert not found, found


def test_the_any_scan_finds_any() -> None:
    source = (
        "from typing import Any\n"
        "def f(x: Any) -> int: ...\n"
        "def g(x: int) -> 'list[Any]': ...\n"
        "def _h(x: Any) -> Any: ...\n"
        "class C:\n    def m(self, **k: typing.Any) -> None: ...\n"
        "    def __init__(self, a: Any) -> None: ...\n"
        "class _D:\n    def m(self, x: Any) -> None: ...\n"
        "def ok(x: object) -> dict[str, int]:\n    def inner(y: Any) -> Any: ...\n"
    )
    assert _public_signatures_with_any(source) == ["f:2", "g:3", "m:6", "__init__:7"]


def test_the_scene_tests_need_no_qt() -> None:
    """``tests/viewer/scene`` runs in the engine-only environment (``.ci/run``): no test
    there may import Qt or take a Qt fixture (``qtbot``, ``qapp``)."""
    scene = ROOT / "tests" / "viewer" / "scene"
    offenders = []
    for path in sorted(scene.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            elif isinstance(node, ast.FunctionDef):
                names = [a.arg for a in node.args.args if a.arg in ("qtbot", "qapp")]
            if any(n.split(".")[0] in ("PySide6", "pytestqt", "qtbot", "qapp") for n in names):
                offenders.append(f"{path.name}:{node.lineno}")
    assert offenders == []
