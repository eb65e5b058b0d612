"""The structure of the code, read from its imports (the layers themselves are import-linter
contracts in ``pyproject.toml``, checked by ``make test``).

- No import cycle between modules of the project. Edges are the imports written in the code, as
  grimp reads them (also inside functions and under ``TYPE_CHECKING``); a package is its
  ``__init__`` module, so a package re-exporting its modules imports them, and a module importing
  its own package back closes a cycle. Python's implicit import of a module's parent packages is
  not an edge.
- No module imports another module's private names (``_name``), whether with ``from … import``
  or as an attribute of an imported module: what two modules share is a public function.

Each check is also run on a small example that breaks it, so it is known to be able to fail.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("tarot_club", "scoring", "tournaments")


# --- cycles ------------------------------------------------------------------------------------


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module, or of one that imports itself
    (Tarjan's algorithm), each sorted, in sorted order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(edges.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1 or node in edges.get(node, ()):
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return sorted(found)


def project_imports() -> dict[str, set[str]]:
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    return {module: graph.find_modules_directly_imported_by(module) for module in graph.modules}


def test_no_import_cycle_between_modules_of_the_project():
    edges = project_imports()
    assert len(edges) > 50  # the whole project was read
    assert cycles(edges) == []


def test_a_cycle_is_found():
    edges = {
        "app.services": {"app.selectors", "app.models"},
        "app.selectors": {"app.services", "app.models"},
        "app.models": set(),
        "app.pdf": {"app.pdf.page"},
        "app.pdf.page": {"app.pdf"},  # a module importing its own package back
        "app.loop": {"app.loop"},
    }
    assert cycles(edges) == [
        ["app.loop"],
        ["app.pdf", "app.pdf.page"],
        ["app.selectors", "app.services"],
    ]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


# --- private names -----------------------------------------------------------------------------


def is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _absolute(node: ast.ImportFrom, importer: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    package = importer.split(".")
    if not is_package:
        package.pop()
    package = package[: len(package) - (node.level - 1)]
    return ".".join(package + ([node.module] if node.module else []))


def _dotted(node: ast.expr) -> list[str] | None:
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return None if inner is None else [*inner, node.attr]
    return None


def private_uses(
    source: str, importer: str, modules: set[str], is_package: bool = False
) -> Iterator[str]:
    """Where ``source`` (the module ``importer``) uses another module's private name: imported
    from it, or read as an attribute of a module of ``modules`` bound by an import."""
    tree = ast.parse(source)
    bound: dict[str, str] = {}  # local name -> the project module it is bound to
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    bound[alias.asname] = alias.name
                else:
                    root = alias.name.split(".")[0]
                    bound[root] = root
                if any(is_private(part) for part in alias.name.split(".")):
                    yield f"line {node.lineno}: import {alias.name}"
        elif isinstance(node, ast.ImportFrom):
            source_module = _absolute(node, importer, is_package)
            if any(is_private(part) for part in source_module.split(".")):
                yield f"line {node.lineno}: from {source_module} import …"
            for alias in node.names:
                if is_private(alias.name):
                    yield f"line {node.lineno}: from {source_module} import {alias.name}"
                elif f"{source_module}.{alias.name}" in modules:
                    bound[alias.asname or alias.name] = f"{source_module}.{alias.name}"
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and is_private(node.attr):
            path = _dotted(node.value)
            if path and path[0] in bound:
                target = ".".join([bound[path[0]], *path[1:]])
                if target in modules and target != importer:
                    yield f"line {node.lineno}: {target}.{node.attr}"


def project_files() -> Iterable[tuple[Path, str]]:
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            yield path, module_name(path, ROOT)


def test_no_module_uses_another_modules_private_names():
    files = list(project_files())
    modules = {name for _path, name in files}
    found = [
        f"{name} {use}"
        for path, name in files
        for use in private_uses(
            path.read_text(), name, modules, is_package=path.name == "__init__.py"
        )
    ]
    assert len(files) > 50
    assert found == []


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from app.services import _write", ["line 1: from app.services import _write"]),
        ("from .services import _write", ["line 1: from app.services import _write"]),
        ("from app import services\nservices._write()", ["line 2: app.services._write"]),
        ("import app.services as s\ns._write()", ["line 2: app.services._write"]),
        ("import app.services\napp.services._write()", ["line 2: app.services._write"]),
        ("from app._internal import helper", ["line 1: from app._internal import …"]),
        # Allowed: public names, a public name bound privately, dunders, one's own attributes.
        ("from app.services import write as _write\n_write()", []),
        ("from __future__ import annotations\nfrom app import __version__", []),
        ("class A:\n    def f(self):\n        return self._x", []),
        ("from app.services import Actor\nActor._cache", []),
    ],
)
def test_private_uses_are_found(source, expected):
    modules = {"app", "app.services", "app.selectors", "app._internal"}
    assert list(private_uses(source, "app.selectors", modules)) == expected
