"""Imports flow downward only: _api -> _lazy -> _codegen -> _devices (ARCHITECTURE.md).

Every module's imports are parsed with ``ast`` (including imports inside functions, which
are how a module would sneak an upward dependency past import-time cycles). Foundation
modules (_env, _config, _debug, _errors) import no layer at all.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "zyxarray"
LAYERS = ("_api", "_lazy", "_codegen", "_devices")        # top to bottom
FOUNDATION = ("_env", "_config", "_debug", "_errors")


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in the file."""
    tree = ast.parse(path.read_text(), filename=str(path))
    name = _module_name(path)
    package = name if _is_package(path) else name.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if node.module is None or node.level == 0:
                # ``from .. import _debug`` imports the submodule zyxarray._debug
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    rel = Path(*sub.split("."))
                    if (PACKAGE.parent / rel).with_suffix(".py").exists() or \
                            (PACKAGE.parent / rel / "__init__.py").exists():
                        found.append((node.lineno, sub))
                    else:
                        found.append((node.lineno, target))
            else:
                found.append((node.lineno, target))
    return [(line, t) for line, t in found if t == "zyxarray" or t.startswith("zyxarray.")]


def _layer(module: str) -> str | None:
    parts = module.split(".")
    if len(parts) < 2:
        return "root" if parts == ["zyxarray"] else None
    top = parts[1]
    if top in LAYERS or top in FOUNDATION:
        return top
    return None


def _rank(layer: str) -> int:
    return LAYERS.index(layer)


SOURCES = sorted(PACKAGE.rglob("*.py"))


def test_the_package_has_every_layer() -> None:
    present = {p.relative_to(PACKAGE).parts[0] for p in SOURCES}
    assert set(LAYERS) <= present
    assert {f"{f}.py" for f in FOUNDATION} <= present


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_flow_downward(path: Path) -> None:
    here = _layer(_module_name(path))
    problems = []
    for line, target in _imports(path):
        there = _layer(target)
        if here in FOUNDATION:
            if there not in FOUNDATION:
                problems.append(f"line {line}: foundation module imports {target}")
        elif here in LAYERS:
            if there == "root" and here != "_api":
                problems.append(f"line {line}: {here} imports the public namespace")
            elif there in LAYERS and _rank(there) < _rank(here):
                problems.append(f"line {line}: {here} imports {target} (upward)")
    assert not problems, f"{path.relative_to(PACKAGE.parent)}:\n" + "\n".join(problems)


def test_the_checker_catches_upward_imports(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The parser resolves relative imports: a planted upward import is found."""
    fake = tmp_path / "zyxarray"
    (fake / "_devices").mkdir(parents=True)
    (fake / "_lazy").mkdir()
    (fake / "_lazy" / "graph.py").write_text("")
    bad = fake / "_devices" / "bad.py"
    bad.write_text("def f():\n    from .._lazy import graph\n    from ..import _env\n")
    monkeypatch.setitem(globals(), "PACKAGE", fake)
    assert "zyxarray._lazy" in [t for _, t in _imports(bad)]
    with pytest.raises(AssertionError, match="upward"):
        test_imports_flow_downward(bad)
