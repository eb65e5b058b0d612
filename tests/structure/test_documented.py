"""What the documents say about the code's layout stays true when the code moves.

- Each app's ``__init__`` docstring says what it may import: it names every module of the project
  package (``tarot_club``) that the app imports, and the project's docstring names every one of
  its modules the apps import. A ``commands`` package's docstring names each of its commands.
- Every repository path written in backquotes in README.md and docs/rules.md exists, and a name
  said to be "in" a Python file (« `next_dealer` in `scoring/engine/table.py` ») is defined there.

Each check is also run on a small example that breaks it, so it is known to be able to fail.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import grimp

import scoring
import tarot_club
import tournaments

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = ("README.md", "docs/rules.md")
TOP = ("scoring/", "tournaments/", "tarot_club/", "tests/", "static/", "docs/", "bench/", "locale/")


def leaves_imported(graph: grimp.ImportGraph, app: str) -> set[str]:
    """The ``tarot_club`` modules that modules of ``app`` import, by their last name."""
    found = set()
    for module in graph.find_children(app) | graph.find_descendants(app) | {app}:
        for target in graph.find_modules_directly_imported_by(module):
            if target.startswith("tarot_club."):
                found.add(target.rsplit(".", 1)[1])
    return found


def unnamed(docstring: str, names: set[str]) -> set[str]:
    return {name for name in names if not re.search(rf"\b{re.escape(name)}\b", docstring)}


def test_each_app_names_the_project_modules_it_imports():
    graph = grimp.build_graph("tarot_club", "scoring", "tournaments", cache_dir=None)
    imported = {app: leaves_imported(graph, app) for app in ("scoring", "tournaments")}
    assert "errors" in imported["scoring"] and "errors" in imported["tournaments"]
    assert unnamed(scoring.__doc__, imported["scoring"]) == set()
    assert unnamed(tournaments.__doc__, imported["tournaments"]) == set()
    assert unnamed(tarot_club.__doc__, imported["scoring"] | imported["tournaments"]) == set()


def test_each_commands_package_names_its_commands():
    packages = sorted(ROOT.glob("*/management/commands/__init__.py"))
    assert len(packages) >= 2
    for init in packages:
        commands = {p.stem for p in init.parent.glob("*.py") if not p.stem.startswith("_")}
        docstring = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
        assert commands and unnamed(docstring, commands) == set(), init


def test_an_unnamed_import_is_found():
    docstring = "May import tournaments and tarot_club.errors."
    assert unnamed(docstring, {"errors", "network"}) == {"network"}


# --- paths and names in the documents ----------------------------------------------------------


def spans(text: str) -> list[str]:
    """Backquoted parts of Markdown prose (fenced blocks left out), line breaks read as spaces."""
    prose = re.sub(r"```.*?```", "", text, flags=re.S)
    return [re.sub(r"\s+", " ", part) for part in re.findall(r"`([^`\n]+(?:\n[^`\n]+)?)`", prose)]


def defines(source: str, name: str) -> bool:
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            if node.name == name:
                return True
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                return True
    return False


def made_by_running(root: Path) -> tuple[str, ...]:
    """The folders git ignores (``bench/out/``...): made by running things, not in a clone."""
    ignore = root / ".gitignore"
    lines = ignore.read_text(encoding="utf-8").splitlines() if ignore.exists() else []
    return tuple(line.lstrip("/") for line in lines if line.endswith("/") and "*" not in line)


def problems(text: str, root: Path) -> list[str]:
    found = []
    generated = made_by_running(root)
    for span in spans(text):
        path = span.split()[0].rstrip(".,;:")
        if path.startswith(generated):
            continue
        if path.startswith(TOP) and not (root / path).exists():
            found.append(f"`{span}`: no {path}")
    for name, path in re.findall(r"`(\w+)`\s+in\s+`([\w/]+\.py)`", text):
        file = root / path
        if file.is_file() and not defines(file.read_text(encoding="utf-8"), name):
            found.append(f"`{name}` is not defined in {path}")
    return found


def test_the_documents_name_paths_and_names_that_exist():
    checked = 0
    for document in DOCUMENTS:
        text = (ROOT / document).read_text(encoding="utf-8")
        checked += sum(1 for s in spans(text) if s.startswith(TOP))
        assert problems(text, ROOT) == [], document
    assert checked > 30  # the documents were read


def test_a_stale_path_or_name_is_found(tmp_path):
    (tmp_path / "scoring").mkdir()
    (tmp_path / "scoring" / "table.py").write_text("def next_dealer():\n    pass\n")
    text = (
        "`next_dealer` in `scoring/table.py`; `deal_quota` in\n  `scoring/table.py`;"
        " `scoring/gone.py` (moved)"
    )
    assert problems(text, tmp_path) == [
        "`scoring/gone.py`: no scoring/gone.py",
        "`deal_quota` is not defined in scoring/table.py",
    ]
