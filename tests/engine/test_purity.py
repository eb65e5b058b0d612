"""The engine is plain Python: importing it loads no Django module."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


PURE_MODULES = [
    "scoring.engine",
    "tournaments.seating",
    "tournaments.seating.designs",
    "tournaments.seating.bounds",
    "tournaments.ranking",
    "tournaments.championship",
    "scoring.prizes.rules",
    "tournaments.championships.rules",
    "scoring.documents.pdf",
    "scoring.documents.xlsx",
    "scoring.documents.fingerprint",
]


@pytest.mark.parametrize("module", PURE_MODULES)
def test_pure_module_imports_no_django(module):
    code = (
        f"import sys, {module};"
        "leaked = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'));"
        "print(leaked); sys.exit(1 if leaked else 0)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
