"""The list of survivors judged equivalent stays true to the code it speaks of.

`tests/mutation/run.py` matches a survivor on its file and both lines; an entry whose original
line has left its file would excuse nothing and only mislead the next reviewer.
"""

from pathlib import Path

import pytest

from tests.mutation.run import FILES

ROOT = Path(__file__).resolve().parents[2]
EQUIVALENT = Path(__file__).with_name("equivalent.txt")


def entries() -> list[tuple[int, list[str]]]:
    return [
        (number, line.split(" | "))
        for number, line in enumerate(EQUIVALENT.read_text(encoding="utf-8").splitlines(), 1)
        if line.strip() and not line.startswith("#")
    ]


def test_the_list_is_not_empty_and_each_entry_has_its_four_parts():
    assert entries()
    for number, parts in entries():
        assert len(parts) == 4, f"equivalent.txt:{number} needs file | original | mutated | why"
        path, original, mutated, reason = (part.strip() for part in parts)
        assert path in {source for source, _module in FILES.values()}, f"{path}: not mutated"
        assert original.startswith("`") and original.endswith("`"), f"equivalent.txt:{number}"
        assert mutated.startswith("`") and mutated.endswith("`"), f"equivalent.txt:{number}"
        assert original != mutated, f"equivalent.txt:{number} mutates nothing"
        assert len(reason) > 20, f"equivalent.txt:{number} gives no reason"


@pytest.mark.parametrize("number", [number for number, _ in entries()])
def test_each_entry_names_a_real_line_of_its_file(number):
    parts = dict(entries())[number]
    path, original = parts[0].strip(), parts[1].strip().strip("`")
    source = ROOT / path
    assert source.is_file(), f"equivalent.txt:{number} names {path}, which does not exist"
    lines = {line.strip() for line in source.read_text(encoding="utf-8").splitlines()}
    assert original in lines, f"equivalent.txt:{number}: {path} no longer has `{original}`"


def test_the_mutants_mutmut_writes_are_never_committed():
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert "mutants/" in ignored
