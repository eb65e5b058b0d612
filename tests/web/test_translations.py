"""French comes first: every string is translated, and the compiled catalogue is up to date."""

from pathlib import Path

import polib

LOCALE = Path(__file__).resolve().parents[2] / "locale" / "fr" / "LC_MESSAGES"


def test_every_french_string_is_translated():
    po = polib.pofile(str(LOCALE / "django.po"))
    assert [e.msgid for e in po.untranslated_entries()] == []
    assert [e.msgid for e in po.fuzzy_entries()] == []


def test_compiled_catalogue_matches_the_source():
    po = polib.pofile(str(LOCALE / "django.po"))
    mo = polib.mofile(str(LOCALE / "django.mo"))
    assert {(e.msgid, e.msgstr) for e in po.translated_entries()} == {
        (e.msgid, e.msgstr) for e in mo if e.msgid
    }
