"""The README's commands work as written: every one is run here, and what it prints is checked.

What is read from README.md:

- the table of the "Commands" section (columns "command", "what it does", "prints"): each command
  is a synopsis (``[optional part]``, ``a|b`` alternatives, UPPERCASE placeholders). It is run
  twice, without its optional parts (first alternatives) and with all of them (last
  alternatives), placeholders replaced by real values: fixed ones below, ``SLUG`` from the
  summary ``demo_tournament`` printed, ``FILE`` a new file for ``-o FILE`` and otherwise the file
  the command it reads from wrote. Every backquoted part of "prints" must appear in the output,
  in order, with ``...`` standing for any text and the placeholders replaced. Given an unknown
  tournament or a missing file, a command prints a one-line error and exits with status 1;
- every ``sh`` block: a ``manage.py`` command is run as written, followed by a paragraph that
  starts "prints `...`" (and may say "exits with status N"); ``make TARGET`` is checked with
  ``make -n`` (the target exists; nothing is served); a benchmark script answers ``--help`` and
  knows every option its synopsis shows; ``export`` lines set up the block's environment;
- the production block's environment passes the deploy check the README promises, and every
  ``manage.py NAME`` and ``make NAME`` mentioned anywhere names a real command or target.

A command this test does not know how to check fails it, and so does a README where none is
found: restructuring the README cannot make this test vacuous.

The commands run in a subprocess through ``bash``, with only PATH, HOME and LANG set (no DJANGO_*
variable, no DATABASE_URL), from a throw-away copy of the repository whose ``.venv`` points at
this checkout's: its default ``db.sqlite3`` (and generated secret key, backups...) are the
throw-away ones, exactly as on a fresh clone.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
VENV_PYTHON = ".venv/bin/python"
MANAGE = f"{VENV_PYTHON} manage.py"

# The order the table's commands run in (each needs what the ones before it made): the demo
# before the backup is taken, the backup before the tournament that the restore then removes,
# so that importing its archive is not refused as a duplicate.
ORDER = (
    "migrate",
    "setup_demo",
    "backup_db",
    "demo_tournament",
    "demo_season",
    "score_sheets",
    "export_tournament",
    "restore_db",
    "import_tournament",
    "publish_seal_key",
    "score_deal",
)
# Placeholders with a fixed value. 16 players: teams of 4 (the last alternative) need 4 tables.
VALUES = {
    "TOURNAMENTS": "3",
    "PLAYERS": "16",
    "ROUNDS": "2",
    "DEALS": "3",
    "SEED": "7",
    "ROUND": "1",
    "TABLE": "2",
    "RULES": "house-handfuls-20-40-60",
}
# A command that reads FILE reads what this command wrote.
READS_FROM = {"restore_db": "backup_db", "import_tournament": "export_tournament"}
PLACEHOLDER = re.compile(r"\b[A-Z]{2,}(?:_[A-Z]+)*\b")
WILDCARD = "..."


@dataclass
class Documented:
    command: str  # as written (a synopsis for the table's rows)
    prints: list[str]  # backquoted patterns, in order
    status: int = 0
    where: str = ""
    environment: list[str] = field(default_factory=list)  # the block's `export` lines


# -- Reading the README --------------------------------------------------------------------------


def section(text: str, title: str) -> str:
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def spans(text: str) -> list[str]:
    """The backquoted parts of some prose (fenced blocks left out; a line break in a part is a
    space, as Markdown shows it)."""
    prose = re.sub(r"```.*?```", "", text, flags=re.S)
    return [re.sub(r"\s*\n\s*", " ", part) for part in re.findall(r"`([^`]+)`", prose)]


def table_commands(text: str) -> list[Documented]:
    """The rows of the Commands section's table."""
    rows = [line for line in section(text, "Commands").splitlines() if line.startswith("|")]
    assert len(rows) > 2, "the Commands section has no table of commands"
    cells = [[c.strip() for c in re.split(r"(?<!\\)\|", row)[1:-1]] for row in rows]
    header = [c.lower() for c in cells[0]]
    assert {"command", "prints"} <= set(header), f"unexpected table header {cells[0]}"
    found = []
    for row in cells[2:]:
        command = spans(row[header.index("command")])
        assert len(command) == 1, f"one command per row: {row}"
        found.append(
            Documented(
                command=command[0].replace("\\|", "|"),
                prints=[p.replace("\\|", "|") for p in spans(row[header.index("prints")])],
                where=f"table row {command[0]!r}",
            )
        )
    return found


def shell_commands(lines: list[str]) -> list[str]:
    """Lines joined into complete commands (open quotes, a trailing pipe or backslash)."""
    commands, pending = [], ""
    for line in lines:
        pending = f"{pending}\n{line}" if pending else line
        if not pending.strip():
            pending = ""
            continue
        try:
            shlex.split(pending, comments=True)
        except ValueError:  # a quote still open: the command goes on
            continue
        if pending.rstrip().endswith(("|", "\\", "&&")):
            continue
        commands.append(pending)
        pending = ""
    assert not pending, f"an unfinished command in a README block: {pending!r}"
    return commands


def block_commands(text: str) -> list[tuple[str, Documented]]:
    """Every command of every ``sh`` block, with its kind."""
    found = []
    for match in re.finditer(r"```sh\n(.*?)```\n", text, re.S):
        line = text.count("\n", 0, match.start()) + 1
        after = text[match.end() :].lstrip("\n").split("\n\n")[0]
        prints = spans(after) if after.startswith("prints ") else []
        status = re.search(r"exits with status (\d+)", after) if prints else None
        commands = shell_commands(match.group(1).splitlines())
        environment = [c for c in commands if c.startswith("export ")]
        for command in commands:
            if command.startswith("export "):
                continue
            words = shlex.split(command, comments=True)
            documented = Documented(
                command=command,
                prints=prints,
                status=int(status.group(1)) if status else 0,
                where=f"README line {line}",
                environment=environment,
            )
            if words[0] == "make":
                found.append(("make", documented))
            elif "manage.py" in words:
                assert prints, f"{documented.where}: say what `{command}` prints"
                assert command == commands[-1], f"{documented.where}: one command per example"
                found.append(("manage", documented))
            elif words[0] == VENV_PYTHON and words[1].startswith("bench/"):
                found.append(("bench", documented))
            else:
                raise AssertionError(f"{documented.where}: no way to check `{command}` here")
    return found


# -- Synopses ------------------------------------------------------------------------------------


def variants(synopsis: str) -> list[str]:
    """Without the optional parts and first alternatives; with all of them and last ones."""
    bare = re.sub(r"\s*\[[^\[\]]+\]", "", synopsis)
    full = re.sub(r"\[([^\[\]]+)\]", r"\1", synopsis)
    alternatives = re.compile(r"(?<![\w|-])([\w-]+(?:\|[\w-]+)+)(?![\w|-])")
    return [
        alternatives.sub(lambda m: m.group(1).split("|")[0], bare),
        alternatives.sub(lambda m: m.group(1).split("|")[-1], full),
    ]


def name_of(command: str) -> str:
    words = shlex.split(command)
    return words[words.index("manage.py") + 1]


# -- Running -------------------------------------------------------------------------------------


@dataclass
class Run:
    command: str
    status: int
    output: str


# What a fresh clone would not have (ignored by git, or made by running things).
IGNORED = shutil.ignore_patterns(
    ".git",
    ".venv",
    "__pycache__",
    "*.pyc",
    "*.sqlite3*",
    "*.secret-key",
    ".pytest_cache",
    ".hypothesis",
    ".ruff_cache",
    "*.egg-info",
    "staticfiles",
    "backups",
    "out",
    "test-artifacts",
)


class Copy:
    """A throw-away copy of the repository, run as a person would run it."""

    def __init__(self, base: Path):
        self.dir = base / "tarot-club"
        shutil.copytree(ROOT, self.dir, ignore=IGNORED)
        (self.dir / ".venv").symlink_to(ROOT / ".venv")
        home = base / "home"
        home.mkdir()
        self.env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8"}
        self.files = base / "files"
        self.files.mkdir()

    def run(self, command: str, stdin: str | None = None, prelude: list[str] = ()) -> Run:
        script = "\n".join([*prelude, command])
        done = subprocess.run(
            ["bash", "-c", script],
            cwd=self.dir,
            env=self.env,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=600,
        )
        return Run(command, done.returncode, done.stdout + done.stderr)


def pattern(text: str, values: dict[str, str]) -> re.Pattern:
    """A printed-text pattern: ``...`` is any text; placeholders take their value when bound,
    any text otherwise; the rest is literal."""
    parts = []
    for piece in re.split(r"(\.\.\.|" + PLACEHOLDER.pattern + ")", text):
        if piece == WILDCARD:
            parts.append(".*?")
        elif PLACEHOLDER.fullmatch(piece) and piece in {*VALUES, "SLUG", "FILE"}:
            parts.append(re.escape(values[piece]) if piece in values else r".+?")
        else:
            parts.append(re.escape(piece))
    return re.compile("".join(parts), re.S)


def check_prints(run: Run, documented: Documented, values: dict[str, str]) -> list[str]:
    problems = []
    if run.status != documented.status:
        problems.append(f"exit status {run.status}, the README says {documented.status}")
    position = 0
    for text in documented.prints:
        found = pattern(text, values).search(run.output, position)
        if found is None:
            problems.append(f"does not print `{text}`")
        else:
            position = found.end()
    if problems:
        return [f"{documented.where}: `{run.command}`: {'; '.join(problems)}\n{run.output}"]
    return []


MAGIC = {
    ".pdf": b"%PDF-",
    ".xlsx": b"PK\x03\x04",
    ".backup": b"SQLite format 3\x00",
    ".pub": b"# Tarot Club: public sealing key",
}


def check_made(path: Path, where: str) -> list[str]:
    if not path.is_file() or path.stat().st_size == 0:
        return [f"{where}: {path.name} was not written"]
    if path.suffix == ".json":
        archive = json.loads(path.read_text(encoding="utf-8"))
        return [] if "tournament" in archive else [f"{where}: {path.name} is not an archive"]
    if not path.read_bytes().startswith(MAGIC[path.suffix]):
        return [f"{where}: {path.name} is not a {path.suffix} file"]
    return []


def run_table(copy: Copy, rows: list[Documented], score_input: str) -> list[str]:
    by_name = {name_of(row.command): row for row in rows}
    unknown = sorted(set(by_name) - set(ORDER))
    assert not unknown, f"new README commands {unknown}: add them to ORDER (and VALUES)"
    assert len(by_name) == len(rows), "a command has two rows"
    problems: list[str] = []
    written: dict[str, Path] = {}  # command name -> the last file it wrote
    slug = None
    for name in (n for n in ORDER if n in by_name):
        row = by_name[name]
        for index, synopsis in enumerate(dict.fromkeys(variants(row.command))):
            values = dict(VALUES)
            if slug is not None:
                values["SLUG"] = slug
            words = synopsis.split()
            outputs = []
            for position, word in enumerate(words):
                if not word.startswith("FILE"):
                    continue
                suffix = word.removeprefix("FILE")  # FILE.json: the README names the suffix
                if words[position - 1] in ("-o", "--output"):
                    fmt = words[words.index("--format") + 1] if "--format" in words else "backup"
                    path = copy.files / f"{name}-{index}{suffix or '.' + fmt}"
                    outputs.append(path)
                else:
                    assert name in READS_FROM, f"{row.where}: where does {name} read FILE from?"
                    path = written[READS_FROM[name]]
                    assert path.name.endswith(suffix), f"{row.where}: reads {path.name}?"
                values["FILE"] = str(path)[: len(str(path)) - len(suffix)]
                words[position] = values["FILE"] + suffix
            for position, word in enumerate(words):
                for placeholder in PLACEHOLDER.findall(word):
                    assert placeholder in values, f"{row.where}: no value for {placeholder}"
                    word = word.replace(placeholder, values[placeholder])
                words[position] = word
            command = " ".join(words)
            run = copy.run(command, stdin=score_input if name == "score_deal" else None)
            problems += check_prints(run, row, values)
            for path in outputs:
                problems += check_made(path, row.where)
                written[name] = path
            if name == "demo_tournament" and run.status == 0:
                slug = json.loads(run.output.strip().splitlines()[-1])["slug"]
    return problems


def run_mistakes(copy: Copy, rows: list[Documented]) -> list[str]:
    """The README's promise for a command that cannot do its work: one line, exit status 1.
    Tried on every command that names a tournament (an unknown one) or reads a file (missing)."""
    problems = []
    for row in rows:
        bare = variants(row.command)[0]
        reads = name_of(bare) in READS_FROM
        if "SLUG" not in bare and not reads:
            continue
        words = bare.replace("SLUG", "no-such-tournament").split()
        missing = str(copy.files / "missing")
        command = " ".join(
            missing + w.removeprefix("FILE") if w.startswith("FILE") else w for w in words
        )
        for placeholder, value in VALUES.items():
            command = command.replace(placeholder, value)
        run = copy.run(command)
        lines = [line for line in run.output.splitlines() if line.strip()]
        if run.status != 1 or len(lines) != 1:
            problems.append(f"{row.where}: `{command}` gave {run.status}:\n{run.output}")
    return problems


# -- The tests -----------------------------------------------------------------------------------


def test_the_readme_is_read_whole():
    """The parsers find every kind of command: a README restructure cannot skip them."""
    text = README.read_text(encoding="utf-8")
    rows = table_commands(text)
    assert {name_of(r.command) for r in rows} >= {
        "score_deal",
        "demo_tournament",
        "score_sheets",
        "export_tournament",
        "import_tournament",
        "backup_db",
        "restore_db",
        "setup_demo",
    }
    assert all(r.prints for r in rows), "every row says what its command prints"
    kinds = [kind for kind, _ in block_commands(text)]
    assert kinds.count("manage") >= 2 and "make" in kinds and "bench" in kinds
    assert variants("a [--x X] --f pdf|xlsx [--t 0|2|4]") == ["a --f pdf", "a --x X --f xlsx --t 4"]


@pytest.mark.skipif(
    settings.DATABASES["default"]["ENGINE"] != "tarot_club.sqlite",
    reason="the README's commands run on their own SQLite database: once, in the SQLite run",
)
def test_every_readme_command_works_as_written(tmp_path):
    if not (ROOT / VENV_PYTHON).exists():
        pytest.skip("the README's commands use the .venv that `make test` builds")
    text = README.read_text(encoding="utf-8")
    copy = Copy(tmp_path)
    blocks = block_commands(text)
    examples = [d for kind, d in blocks if kind == "manage"]
    scoring = next(d for d in examples if d.command.startswith("echo '") and d.status == 0)
    score_input = shlex.split(scoring.command.split("|")[0])[1]
    json.loads(score_input)  # the example's deal is JSON

    rows = table_commands(text)
    problems = run_table(copy, rows, score_input) + run_mistakes(copy, rows)
    for documented in examples:
        problems += check_prints(copy.run(documented.command), documented, {})
    assert not problems, "\n\n".join(problems)


def test_a_command_run_before_migrate_says_to_migrate(tmp_path):
    """After `make test` alone there is no database yet: one line says what to do."""
    copy = Copy(tmp_path)
    run = copy.run(f"{MANAGE} export_tournament some-tournament -o archive.json")
    assert run.status == 1, run.output
    (line,) = run.output.strip().splitlines()
    assert line.startswith("CommandError: the database is not set up (")
    assert line.endswith(f"Run `{MANAGE} migrate` first (`make run` does it).")
    assert not (copy.dir / "archive.json").exists()


def test_every_make_target_and_benchmark_the_readme_shows_exists(tmp_path):
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    text = README.read_text(encoding="utf-8")
    copy = Copy(tmp_path)
    problems = []
    blocks = block_commands(text)
    makes = {d.command.split("#")[0].strip() for kind, d in blocks if kind == "make"}
    makes |= {f"make {name}" for name in re.findall(r"`make ([a-z-]+)`", text)}
    assert {"make run", "make test", "make serve"} <= makes
    for command in sorted(makes):
        run = copy.run(command.replace("make ", "make -n ", 1))
        if run.status != 0:
            problems.append(f"`{command}`: make -n says\n{run.output}")
    for _, documented in (b for b in blocks if b[0] == "bench"):
        script = shlex.split(documented.command)[1]
        run = copy.run(f"{VENV_PYTHON} {script} --help")
        documented_options = re.findall(r"--[a-z-]+|(?<=[ |])[a-z]+(?=[|\]])", documented.command)
        missing = [o for o in documented_options if o not in run.output]
        if run.status != 0 or missing:
            problems.append(f"`{documented.command}`: --help gives {run.status}, lacks {missing}")
    assert not problems, "\n".join(problems)


def test_every_manage_py_command_the_readme_names_exists():
    from django.core.management import get_commands

    text = README.read_text(encoding="utf-8")
    named = set(re.findall(r"manage\.py ([a-z_]+)", text))
    assert len(named) >= 9
    assert named <= set(get_commands()), sorted(named - set(get_commands()))


def test_the_production_settings_pass_the_deploy_check_the_readme_promises(tmp_path):
    text = README.read_text(encoding="utf-8")
    serve = next(d for kind, d in block_commands(text) if d.command.startswith("make serve"))
    assert any("DJANGO_SECRET_KEY" in line for line in serve.environment)
    check = next(s for s in spans(section(text, "Production")) if "check --deploy" in s)
    assert check.startswith(MANAGE), check
    copy = Copy(tmp_path)
    passed = copy.run(check, prelude=serve.environment)
    assert passed.status == 0, passed.output
    # Without the secret key, the same check fails and says why.
    without = [line for line in serve.environment if "DJANGO_SECRET_KEY" not in line]
    refused = copy.run(check, prelude=without)
    assert refused.status != 0
    assert "DJANGO_SECRET_KEY is not set" in refused.output


def test_the_readme_names_the_port_option_of_both_serving_commands(tmp_path):
    """`make run PORT=8101` and `make club PORT=8101` are written out, and each serves that port."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    text = README.read_text(encoding="utf-8")
    shown = dict(re.findall(r"`make (run|club) PORT=(\d+)`", text))
    assert set(shown) == {"run", "club"}, "the README names PORT= with `make run` and `make club`"
    copy = Copy(tmp_path)
    for target, port in shown.items():
        run = copy.run(f"make -n {target} PORT={port}")
        assert run.status == 0, run.output
        lines = run.output.splitlines()
        served = [line for line in lines if re.search(r"runserver|serve_club", line)]
        assert len(served) == 1 and re.search(rf"[: ]{port}\b", served[0]), run.output
