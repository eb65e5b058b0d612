"""The rules that keep the house tidy, read from the code's syntax tree (no import, no Django).

- A module either writes or reads, and its name says which: whatever writes to the database is
  a service (``services.py``, a module of a ``services/`` package) or a signal receiver
  (``receivers.py``); a selector (``selectors.py``) never writes.
- Services take keyword-only arguments, and every public function of a services module writes:
  the reads live in selectors.
- No module that is not pure Python grows past 600 lines.
- The helpers every page depends on have one definition each.

Each rule has its allow-list of today's exceptions; an allow-list may only shrink: an entry that
no longer breaks the rule fails the test until it is removed. Each check also runs on a small
example that breaks it, so it is known to be able to fail.
"""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
APPS = ("scoring", "tournaments", "tarot_club")
MAX_LINES = 600

#: Method names that write (or lock rows to write): a call of one of them on anything.
WRITES = frozenset(
    {
        "save",
        "create",
        "bulk_create",
        "bulk_update",
        "update",
        "delete",
        "get_or_create",
        "update_or_create",
        "select_for_update",
    }
)

# --- the allow-lists (they may only shrink) ------------------------------------------------

#: Modules that write without being named for it, and why.
WRITERS_NOT_NAMED_SERVICES = {
    "scoring/archive.py": "reads and writes a tournament's archive (export and import)",
    "scoring/demo.py": "builds the demonstration tournament for make demo",
    "scoring/season.py": "caches a season's results",
    "scoring/season_archive.py": "imports a season's archive",
}

#: Public functions of services modules that take positional arguments, or only read.
SERVICE_EXCEPTIONS = {
    "scoring/services/sheets.py": {
        "write_score_rows",
        "write_paper_score_rows",
        "seat_results_store",
        "sheet_seats",
        "lock_sheet",
        "refuse_if_closed",
        "log_event",
        "change_voids_signatures",
        "signatures_stand",
        "amend",
        "refresh_status",
    },
    "scoring/services/deals.py": {"deal_slot", "next_deal_number"},
    "scoring/services/rounds.py": {"lock_round_sheets"},
    "tournaments/services/rounds.py": {"lock_round"},
    # The import's first step: the checks the import runs again in its transaction.
    "tournaments/services/player_import.py": {"players_import_preview"},
}

#: Modules over MAX_LINES lines that are not pure.
LONG_MODULES = {"scoring/archive.py"}

#: The helpers that have one home each: name, and the module that defines it.
ONE_HOME = {
    "int_or_none": "tournaments/views/helpers.py",
    "add_service_error": "tournaments/views/helpers.py",
    "rank_label": "tournaments/ranking.py",
    "tournament_touch": "tournaments/services/tournaments.py",
    "standings_response": "scoring/views/exports.py",
    "round_quality": "tournaments/selectors.py",
    "swap_warnings": "tournaments/selectors.py",
}

#: Texts that, spelled out, mean a helper was copied instead of used (and where they may be).
ONE_SPELLING = {
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": {
        "scoring/documents/xlsx.py"
    },
    '}=" if ': {"tournaments/ranking.py"},
    '"N", "E", "S", "O", "5"': {"scoring/documents/labels.py"},  # the seats' letters
    "update(changed_at=timezone.now())": {
        "tournaments/services/tournaments.py",
        "tournaments/services/clubs.py",  # a club's and a season's own mark, not a tournament's
    },
}


# --- reading the code -----------------------------------------------------------------------


def project_modules() -> Iterator[tuple[str, ast.Module, str]]:
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if "/migrations/" in relative:
                continue
            text = path.read_text(encoding="utf-8")
            yield relative, ast.parse(text), text


def pure_packages() -> tuple[str, ...]:
    """The ground floor, as the purity contract of ``pyproject.toml`` lists it, as paths."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    pure = next(
        c
        for c in contracts
        if "django" in c.get("forbidden_modules", []) and "scoring.engine" in c["source_modules"]
    )
    return tuple(module.replace(".", "/") for module in pure["source_modules"])


def is_pure(relative: str, packages: tuple[str, ...]) -> bool:
    stem = relative.removesuffix(".py").removesuffix("/__init__")
    return any(stem == p or stem.startswith(p + "/") for p in packages)


def writes(node: ast.AST) -> bool:
    """Whether the code calls a writing method, or opens a transaction."""
    for child in ast.walk(node):
        call = isinstance(child, ast.Call) and isinstance(child.func, ast.Attribute)
        if call and child.func.attr in WRITES:
            return True
        if isinstance(child, ast.Attribute) and child.attr == "atomic":
            return True
    return False


def writing_functions(tree: ast.Module) -> set[str]:
    """The module's top-level functions that write, directly or through another of them."""
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    found = {name for name, node in functions.items() if writes(node)}
    changed = True
    while changed:
        changed = False
        for name, node in functions.items():
            if name in found:
                continue
            called = {
                c.func.id
                for c in ast.walk(node)
                if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)
            }
            if called & found:
                found.add(name)
                changed = True
    return found


def is_services(relative: str) -> bool:
    return relative.endswith("/services.py") or (
        "/services/" in relative and not relative.endswith("__init__.py")
    )


def is_selectors(relative: str) -> bool:
    return relative.endswith("/selectors.py")


def naming_problems(modules, packages) -> list[str]:
    problems = []
    for relative, tree, _text in modules:
        if is_pure(relative, packages) or "/views/" in relative or "/management/" in relative:
            continue
        if relative.endswith("/models.py") or "/templatetags/" in relative:
            continue
        if is_selectors(relative) and writes(tree):
            problems.append(f"{relative}: a selector writes")
        elif (
            writes(tree)
            and not is_services(relative)
            and not relative.endswith("/receivers.py")
            and relative not in WRITERS_NOT_NAMED_SERVICES
        ):
            problems.append(f"{relative}: writes, but is not named for it (services)")
    return problems


def service_problems(modules) -> list[str]:
    problems = []
    for relative, tree, _text in modules:
        if not is_services(relative):
            continue
        allowed = SERVICE_EXCEPTIONS.get(relative, set())
        writers = writing_functions(tree)
        for node in tree.body:
            if not isinstance(node, ast.FunctionDef) or node.name.startswith("_"):
                continue
            if node.name in allowed:
                continue
            positional = [a.arg for a in node.args.posonlyargs + node.args.args]
            if positional:
                problems.append(
                    f"{relative}: {node.name}({', '.join(positional)}) not keyword-only"
                )
            if node.name not in writers:
                problems.append(f"{relative}: {node.name} only reads (a selector's work)")
    return problems


def definitions(modules, name: str) -> list[str]:
    return [
        relative
        for relative, tree, _text in modules
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.ClassDef) and node.name == name
    ]


# --- the rules --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def modules():
    return list(project_modules())


def test_a_module_that_writes_is_named_for_it_and_selectors_only_read(modules):
    assert len(modules) > 50  # the whole project was read
    assert naming_problems(modules, pure_packages()) == []


def test_services_take_keyword_only_arguments_and_write(modules):
    assert service_problems(modules) == []


def test_no_module_that_is_not_pure_grows_past_600_lines(modules):
    packages = pure_packages()
    long = {
        relative
        for relative, _tree, text in modules
        if text.count("\n") > MAX_LINES and not is_pure(relative, packages)
    }
    assert long - LONG_MODULES == set(), "split these by subject"
    assert LONG_MODULES - long == set(), "no longer over 600 lines: remove from LONG_MODULES"


def test_each_shared_helper_has_one_definition(modules):
    found = {name: definitions(modules, name) for name in ONE_HOME}
    assert found == {name: [home] for name, home in ONE_HOME.items()}


def test_each_shared_spelling_stays_in_its_home(modules):
    found = {
        text: {relative for relative, _tree, source in modules if text in source}
        for text in ONE_SPELLING
    }
    assert found == ONE_SPELLING


def test_templates_spell_a_shared_rank_with_the_filter():
    """« 2= » through ``|rank:tied`` (``rank_label``), not spelled out again in a template."""
    spelled = sorted(
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "templates").rglob("*.html")
        if "tied %}={% endif" in path.read_text(encoding="utf-8")
    )
    assert spelled == []


def test_the_allow_lists_only_shrink(modules):
    """An exception that no longer breaks its rule is removed from its list."""
    by_path = {relative: tree for relative, tree, _text in modules}
    for relative in WRITERS_NOT_NAMED_SERVICES:
        assert writes(by_path[relative]), f"{relative} no longer writes: remove it"
    for relative, names in SERVICE_EXCEPTIONS.items():
        tree = by_path[relative]
        writers = writing_functions(tree)
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name in names:
                positional = node.args.posonlyargs + node.args.args
                assert positional or node.name not in writers, (
                    f"{relative}: {node.name} is a keyword-only service: remove it"
                )
        defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
        assert names <= defined, f"{relative}: {names - defined} are gone: remove them"


# --- each check can fail --------------------------------------------------------------------


def parsed(relative: str, source: str) -> tuple[str, ast.Module, str]:
    return relative, ast.parse(source), source


def test_a_writing_selector_and_an_unnamed_writer_are_found():
    modules = [
        parsed("app/selectors.py", "def f(x):\n    x.save()\n"),
        parsed("app/helpers.py", "def g(qs):\n    qs.update(a=1)\n"),
        parsed("app/services.py", "def h(*, qs):\n    qs.delete()\n"),
        parsed("app/pure.py", "def p(d):\n    d.update(a=1)\n"),
    ]
    assert naming_problems(modules, ("app/pure",)) == [
        "app/selectors.py: a selector writes",
        "app/helpers.py: writes, but is not named for it (services)",
    ]


def test_a_positional_service_and_a_reading_service_are_found():
    source = (
        "from django.db import transaction\n"
        "def _write(obj):\n    obj.save()\n"
        "def good(*, obj):\n    _write(obj)\n"
        "def positional(obj):\n    _write(obj)\n"
        "def reads(*, qs):\n    return list(qs)\n"
        "@transaction.atomic\ndef atomic(*, qs):\n    return list(qs)\n"
    )
    assert service_problems([parsed("app/services/things.py", source)]) == [
        "app/services/things.py: positional(obj) not keyword-only",
        "app/services/things.py: reads only reads (a selector's work)",
    ]


def test_a_second_definition_is_found():
    modules = [
        parsed("a.py", "def int_or_none(v):\n    return v\n"),
        parsed("b.py", "class X:\n    def int_or_none(self):\n        pass\n"),
    ]
    assert definitions(modules, "int_or_none") == ["a.py", "b.py"]
