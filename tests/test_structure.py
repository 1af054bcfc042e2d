"""The shape of the code: imports only point downward, and no two modules import each other.

Layers, lowest first. A module may import modules of its own layer or of a lower one, never of a
higher one (imports inside functions and under TYPE_CHECKING count too); and the import graph
has no cycle. Each module's layer is that of the longest prefix listed (`erabox` itself only
stands for the package's `__init__`: a new top-level module must be given its layer here).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "device" / "erabox"

LAYERS: list[tuple[str, ...]] = [
    ("erabox", "erabox.core"),  # the pure core, and the package's own constants (`erabox` alone)
    ("erabox.ui", "erabox.ports", "erabox.adapters.workers"),  # pixels; the ports; thread helpers
    ("erabox.adapters", "erabox.files"),  # parts, and the files read at start
    ("erabox.run",),  # the one driver, simulate, which game plays, selftest; the hall's director
    ("erabox.run.app",),  # the composition root of `erabox run`
    ("erabox.benchmarks",),  # `erabox bench`: runs the app in-process
    ("erabox.cli", "erabox.__main__", "erabox.launch"),  # the command line
]

# A module longer than this does more than one job.
MAX_LINES = 600


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The erabox modules `name` imports, anywhere in its text."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                found.add(sub if sub in known else target)
    return {m for m in found if m in known and m != name}


def layer_of(name: str) -> int:
    best, best_len = None, -1
    for index, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            inside = name == prefix or (prefix != "erabox" and name.startswith(prefix + "."))
            if inside and len(prefix) > best_len:
                best, best_len = index, len(prefix)
    assert best is not None, f"{name} is in no layer: add it to LAYERS"
    return best


def graph() -> dict[str, set[str]]:
    modules = all_modules()
    known = set(modules)
    return {name: imports_of(name, path, known) for name, path in modules.items()}


def test_every_module_has_a_layer() -> None:
    for name in all_modules():
        layer_of(name)


def test_imports_only_point_downward() -> None:
    upward = sorted(
        f"{name} (layer {layer_of(name)}) imports {target} (layer {layer_of(target)})"
        for name, targets in graph().items()
        for target in targets
        if layer_of(target) > layer_of(name)
    )
    assert upward == [], "\n".join(upward)


def test_no_import_cycles() -> None:
    edges = graph()
    cycles: list[list[str]] = []
    state: dict[str, int] = {}  # 1 = on the current path, 2 = done
    path: list[str] = []

    def visit(name: str) -> None:
        state[name] = 1
        path.append(name)
        for target in sorted(edges[name]):
            if state.get(target) == 1:
                cycles.append(path[path.index(target):] + [target])
            elif target not in state:
                visit(target)
        path.pop()
        state[name] = 2

    for name in sorted(edges):
        if name not in state:
            visit(name)
    assert cycles == [], cycles


def test_no_module_is_longer_than_600_lines() -> None:
    long = sorted(
        f"{name}: {lines} lines"
        for name, path in all_modules().items()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    )
    assert long == [], long


def test_a_new_top_level_module_needs_a_layer() -> None:
    with pytest.raises(AssertionError, match="no layer"):
        layer_of("erabox.newcomer")


def test_the_checker_sees_an_upward_import_and_a_cycle(tmp_path: Path) -> None:
    """The checks above can fail: an adapter importing the app, and two modules importing
    each other, are both found."""
    known = {"erabox.run.app", "erabox.adapters.window", "erabox.adapters.display",
             "erabox.adapters.oled", "erabox.ports"}
    window = tmp_path / "window.py"
    window.write_text("def run():\n    from erabox.run.app import Stop\n", encoding="utf-8")
    assert imports_of("erabox.adapters.window", window, known) == {"erabox.run.app"}
    assert layer_of("erabox.run.app") > layer_of("erabox.adapters.window")
    oled = tmp_path / "oled.py"
    oled.write_text("from .display import frame_bytes\n", encoding="utf-8")
    assert imports_of("erabox.adapters.oled", oled, known) == {"erabox.adapters.display"}
    init = tmp_path / "__init__.py"
    init.write_text("from .. import ports\n", encoding="utf-8")
    assert imports_of("erabox.adapters", init, known) == {"erabox.ports"}


# The profile format and its reader; every other module serves every game alike.
PROFILE_NAMED = {"erabox.core.profile", "erabox.core.profile_reader"}


def test_one_engine_no_profile_twin() -> None:
    """One engine: no module named for "the profile engine" beside the box's own, and no
    `x.py` with a `profile_x.py` twin (docs/architecture.md, "One engine")."""
    names = set(all_modules())
    prefixed = sorted(name for name in names - PROFILE_NAMED
                      if name.rpartition(".")[2].startswith("profile"))
    twins = sorted(name for name in names
                   if "." in name and "{0}.profile_{2}".format(*name.rpartition(".")) in names)
    assert (prefixed, twins) == ([], [])
