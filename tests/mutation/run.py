"""`make mutation`: would the fast tests catch a wrong score, refusal or rank?

Mutates the pure core one file at a time with mutmut (one child process: the machine is shared),
runs the ground floor's fast tests against every mutant, then raises each module-level number of
the rule sets (`scoring/engine/rules.py`) by one, which mutmut does not do (it mutates functions
only), and runs the same tests against each. Prints killed / survived per file.

A survivor listed in `tests/mutation/equivalent.txt` (by file, original line and mutated line,
with a one-line reason) is a change no user could see; any other survivor is a test to write,
and the command then exits with status 1.

    python tests/mutation/run.py                   # every file (about an hour on 2 busy cores)
    python tests/mutation/run.py deal validate     # only these files
    python tests/mutation/run.py --numbers-only    # only the rule sets' numbers
    python tests/mutation/run.py --report          # the last results, without running anything
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
EQUIVALENT = Path(__file__).with_name("equivalent.txt")

# Short name: (source file, mutmut's module name). Keep in step with [tool.mutmut] only_mutate.
FILES = {
    "deal": ("scoring/engine/deal.py", "scoring.engine.deal"),
    "validate": ("scoring/engine/validate.py", "scoring.engine.validate"),
    "rules": ("scoring/engine/rules.py", "scoring.engine.rules"),
    "ranking": ("tournaments/ranking.py", "tournaments.ranking"),
    "championship": ("tournaments/championship.py", "tournaments.championship"),
    "halls": ("tournaments/seating/halls.py", "tournaments.seating.halls"),
    "prizes": ("scoring/prizes/rules.py", "scoring.prizes.rules"),
    "stages": ("tournaments/championships/rules.py", "tournaments.championships.rules"),
}
FAST_TESTS = [
    "tests/engine",
    "tests/ranking",
    "tests/season/test_championship.py",
    "tests/seating/test_halls_rule.py",
    "tests/prizes/test_rules.py",
]
PYTEST = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-n", "0"]
RULES = "scoring/engine/rules.py"
# mutmut's exit codes for a mutant: 0 the tests passed (survived), 33 no test ran it (survived);
# None or absent: not run yet. Anything else (a failing test, a timeout) killed it.
SURVIVED = {0, 33}


def _env() -> dict[str, str]:
    return {**os.environ, "DJANGO_TESTING": "1"}


def run_mutmut(module: str) -> None:
    subprocess.run(
        [str(BIN / "mutmut"), "run", "--max-children", "1", f"{module}.*"],
        cwd=ROOT,
        env=_env(),
        check=False,
        stdout=subprocess.DEVNULL,
    )


def mutmut_results(path: str) -> dict[str, int | None]:
    meta = ROOT / "mutants" / f"{path}.meta"
    if not meta.exists():
        return {}
    return json.loads(meta.read_text())["exit_code_by_key"]


def changed_lines(name: str) -> tuple[str, str]:
    """The original and the mutated line of a mutant (first differing line of each)."""
    shown = subprocess.run(
        [str(BIN / "mutmut"), "show", name], cwd=ROOT, env=_env(), capture_output=True, text=True
    ).stdout.splitlines()
    minus = next((x[1:].strip() for x in shown if x.startswith("-") and x[1:2] != "-"), "")
    plus = next((x[1:].strip() for x in shown if x.startswith("+") and x[1:2] != "+"), "")
    return minus, plus


def equivalents() -> set[tuple[str, str, str]]:
    """(file, original line, mutated line) of each survivor judged equivalent."""
    known = set()
    for line in EQUIVALENT.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        path, minus, plus, _reason = (part.strip() for part in line.split(" | "))
        known.add((path, minus.strip("`"), plus.strip("`")))
    return known


# The rule sets' numbers, raised by one -----------------------------------------------------


def rule_numbers(source: str) -> list[tuple[int, int, int, str]]:
    """(line, start column, end column, text) of every number literal a rule set holds.

    Dictionary keys (numbers of players, of oudlers) are left alone: raising one makes a
    rule set for another table, not a wrong number."""
    tree = ast.parse(source)
    keys = {id(k) for node in ast.walk(tree) if isinstance(node, ast.Dict) for k in node.keys if k}
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):  # functions are mutmut's
            skip.update(id(n) for n in ast.walk(node))
    found = []
    for node in ast.walk(tree):
        if id(node) in keys or id(node) in skip or not isinstance(node, ast.Constant):
            continue
        value = node.value
        numeric_text = isinstance(value, str) and value.replace(".", "", 1).isdigit()
        if (isinstance(value, int) and not isinstance(value, bool)) or numeric_text:
            line = source.splitlines()[node.lineno - 1]
            found.append(
                (
                    node.lineno,
                    node.col_offset,
                    node.end_col_offset,
                    line[node.col_offset : node.end_col_offset],
                )
            )
    return sorted(found)


def _raised(text: str) -> str:
    if text.startswith(("'", '"')):
        quote, number = text[0], text[1:-1]
        return f"{quote}{_plus_one(number)}{quote}"
    return _plus_one(text)


def _plus_one(number: str) -> str:
    return str(float(number) + 1) if "." in number else str(int(number) + 1)


def run_numbers() -> dict[str, tuple[int, list[str]]]:
    source = (ROOT / RULES).read_text(encoding="utf-8")
    numbers = rule_numbers(source)
    killed, survivors = 0, []
    with tempfile.TemporaryDirectory(prefix="tarot-mutation-") as tmp:
        copy = Path(tmp) / "tree"
        shutil.copytree(
            ROOT,
            copy,
            ignore=shutil.ignore_patterns(
                ".git", ".venv", "mutants", "__pycache__", "*.sqlite3*", "test-artifacts"
            ),
        )
        target = copy / RULES
        for lineno, start, end, text in numbers:
            lines = source.splitlines(keepends=True)
            line = lines[lineno - 1]
            lines[lineno - 1] = line[:start] + _raised(text) + line[end:]
            target.write_text("".join(lines), encoding="utf-8")
            outcome = subprocess.run(
                [*PYTEST, *FAST_TESTS],
                cwd=copy,
                env=_env(),
                capture_output=True,
            )
            if outcome.returncode == 0:
                survivors.append(f"{line.strip()} -> {lines[lineno - 1].strip()}")
            else:
                killed += 1
        target.write_text(source, encoding="utf-8")
    return {"rules.py numbers": (killed, survivors)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", help=f"any of: {', '.join(FILES)} (default: all)")
    parser.add_argument("--numbers-only", action="store_true")
    parser.add_argument("--report", action="store_true", help="print the last results only")
    args = parser.parse_args()
    unknown = [f for f in args.files if f not in FILES]
    if unknown:
        parser.error(f"unknown file(s) {', '.join(unknown)}; known: {', '.join(FILES)}")
    chosen = [] if args.numbers_only else (args.files or list(FILES))

    known = equivalents()
    unexplained = 0
    print(f"{'file':<32} {'killed':>7} {'survived':>9} {'equivalent':>11}")
    for short in chosen:
        path, module = FILES[short]
        if not args.report:
            run_mutmut(module)
        results = {k: v for k, v in mutmut_results(path).items() if k.startswith(module + ".")}
        done = {k: v for k, v in results.items() if v is not None}
        survivors = sorted(k for k, v in done.items() if v in SURVIVED)
        equivalent = []
        for name in survivors:
            minus, plus = changed_lines(name)
            if (path, minus, plus) in known:
                equivalent.append(name)
            else:
                unexplained += 1
                print(f"  SURVIVED {name}\n    - {minus}\n    + {plus}")
        killed = len(done) - len(survivors)
        print(f"{path:<32} {killed:>7} {len(survivors):>9} {len(equivalent):>11}")
        if len(done) < len(results):
            print(f"  ({len(results) - len(done)} mutants not run yet)")
    if not args.files and not args.report:
        for name, (killed, survivors) in run_numbers().items():
            for survivor in survivors:
                print(f"  SURVIVED {survivor}")
            unexplained += len(survivors)
            print(f"{name:<32} {killed:>7} {len(survivors):>9} {0:>11}")
    print(
        "every mutant that survived is listed as equivalent"
        if not unexplained
        else f"{unexplained} survivor(s) no test catches: add the test a referee would recognise"
    )
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
