"""What people read about a sheet, read back from the page or the file: the history as sentences
in the reader's language, amendment boxes without internal codes, statuses that match what
happened, one name for the fifth seat everywhere, and the alphabetical list by last name.

The tournament is the lived-in scene of :mod:`tests.scene`: an amended sheet, a paper sheet, a
sheet with a penalty that was never signed, tables of five.
"""

from __future__ import annotations

import html
import io
import re
import unicodedata

import pytest
from django.urls import reverse
from django.utils import timezone, translation
from openpyxl import load_workbook
from pypdf import PdfReader

from scoring.models import SheetEvent
from tests.scene import ORGANISER, build_scene
from tournaments.models import Seat, Table

pytestmark = pytest.mark.django_db

RAW = [
    "None",
    "False",
    "True",
    "created",
    "Créé",
    "garde_contre",
    "garde_sans",
    "deal_corrected",
    "deal_created",
    "penalty",
    "paper_totals",
    "{'",
    "#1",
]


def flat(text: str) -> str:
    return " ".join(text.split())


def pdf_text(content: bytes) -> str:
    return flat("\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages))


def xlsx_text(content: bytes) -> str:
    workbook = load_workbook(io.BytesIO(content))
    return flat(
        " ".join(
            str(value)
            for ws in workbook
            for row in ws.iter_rows(values_only=True)
            for value in row
            if value is not None
        )
    )


@pytest.fixture
def scene():
    return build_scene()


@pytest.fixture
def organiser(client, scene):
    assert client.login(username=ORGANISER[0], password=ORGANISER[1])
    return client


def document(client, scene, table_id: int, fmt: str) -> bytes:
    table = Table.objects.select_related("round").get(pk=table_id)
    url = reverse("sheet_document", args=[scene.slug, table.round.number, table.number, fmt])
    response = client.get(url)
    assert response.status_code == 200
    return b"".join(response.streaming_content) if response.streaming else response.content


def correction(scene) -> SheetEvent:
    return SheetEvent.objects.get(sheet__table_id=scene.amended_table, action="deal_corrected")


def expected_correction_start(scene) -> str:
    event = correction(scene)
    return f"Donne 1 corrigée par arbitre1 à {timezone.localtime(event.at):%H:%M}"


def test_the_history_page_tells_each_change_as_a_sentence(organiser, scene):
    url = reverse("sheet_history", args=[scene.slug, scene.amended_table])
    with translation.override("fr"):
        page = flat(organiser.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode())
    before = correction(scene).data["before"]["points"]
    assert expected_correction_start(scene) in page
    assert f"{before} → 45 points" in page
    assert "(motif : Erreur de comptage des points)" in page
    assert "Signée par" in page
    visible = re.sub(r"<[^>]+>", " ", page)
    for raw in RAW:
        assert raw not in visible, raw


def test_the_history_page_speaks_english_to_an_english_reader(organiser, scene):
    url = reverse("sheet_history", args=[scene.slug, scene.amended_table])
    page = flat(organiser.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode())
    assert "Deal 1 corrected by arbitre1 at" in page
    assert "(reason: Erreur de comptage des points)" in page


def printed_correction_start(scene, language: str = "fr") -> str:
    """The correction as printed sheets tell it: staff by their role, never their login."""
    at = f"{timezone.localtime(correction(scene).at):%H:%M}"
    if language == "en":
        return f"Deal 1 corrected by the referee at {at}"
    return f"Donne 1 corrigée par l’arbitre à {at}"


def test_the_amended_sheet_prints_sentences_not_codes(organiser, scene):
    for text in (
        pdf_text(document(organiser, scene, scene.amended_table, "pdf")),
        xlsx_text(document(organiser, scene, scene.amended_table, "xlsx")),
    ):
        assert "MODIFIÉE APRÈS SIGNATURE" in text.upper()
        assert printed_correction_start(scene) in text
        assert "arbitre1" not in text  # the referee's login is never printed
        assert "(motif : Erreur de comptage des points)" in text
        for raw in ("deal_corrected", "deal_created", "penalty", "#1"):
            assert raw not in text, raw


def test_english_sheets_are_wholly_english_and_name_staff_by_their_role(organiser, scene):
    """The amendment box's lines, the rule set and who gave a penalty: in the reader's
    language, staff named by their role (« by the referee »), never by their login."""
    texts = {
        (table, fmt): document(organiser, scene, table, fmt)
        for table in (scene.amended_table, scene.penalty_table)
        for fmt in ("pdf", "xlsx")
    }
    organiser.cookies["django_language"] = "en"
    english = {
        (table, fmt): document(organiser, scene, table, fmt)
        for table in (scene.amended_table, scene.penalty_table)
        for fmt in ("pdf", "xlsx")
    }
    for (table, fmt), content in english.items():
        text = pdf_text(content) if fmt == "pdf" else xlsx_text(content)
        assert "FFT (official rules)" in text and "règlement" not in text, fmt
        for login in ("arbitre1", "organisatrice"):
            assert login not in text, (fmt, login)
        if table == scene.amended_table:
            assert "AMENDED AFTER SIGNATURE" in text.upper(), fmt
            assert printed_correction_start(scene, "en") in text, fmt
            assert "(reason: Erreur de comptage des points)" in text, fmt
            for french in ("corrigée", "motif", "par l’arbitre", "par arbitre"):
                assert french not in text, (fmt, french)
        else:
            assert "given by the referee" in text, fmt
            assert "Pénalité" not in text and "donnée par" not in text, fmt
    for (table, fmt), content in texts.items():
        text = pdf_text(content) if fmt == "pdf" else xlsx_text(content)
        assert "FFT (règlement officiel)" in text, fmt
        assert "arbitre1" not in text and "organisatrice" not in text, fmt
        if table == scene.penalty_table:
            assert "donnée par l’arbitre" in text, fmt


def test_a_sheet_never_signed_is_not_printed_amended_after_a_penalty(organiser, scene):
    for text in (
        pdf_text(document(organiser, scene, scene.penalty_table, "pdf")),
        xlsx_text(document(organiser, scene, scene.penalty_table, "xlsx")),
    ):
        assert "APRÈS SIGNATURE" not in text.upper()
        assert "Retard à la table" in text
        assert "penalty" not in text


def test_a_paper_sheet_says_paper_not_zero_deals(organiser, scene):
    url = reverse("sheet", args=[scene.slug, scene.paper_table])
    page = flat(re.sub(r"<[^>]+>", " ", organiser.get(url).content.decode()))
    assert "0 sur" not in page and "Donnes : 0" not in page
    assert "Feuille papier" in page
    text = pdf_text(document(organiser, scene, scene.paper_table, "pdf"))
    # No "0/5" deal count (a verification address may end in "0/": it is not a count).
    assert not re.search(r"(?<![\w/.:-])0/\d", text), text


FIFTH_WRONG = ["5e place", "Fifth", "C —"]


def test_the_fifth_seat_has_one_name_everywhere(organiser, client, scene):
    fives = list(Table.objects.filter(round__number=2, seats__position=4).distinct())
    assert fives, "the scene has a table of five"
    table = fives[0]
    fifth = Seat.objects.get(table=table, position=4).registration.full_name
    texts = {
        "public home": client.get(f"/t/{scene.slug}/").content.decode(),
        "public round": client.get(f"/t/{scene.slug}/position/2/").content.decode(),
        "referee sheet": organiser.get(
            reverse("sheet", args=[scene.slug, table.pk])
        ).content.decode(),
        "sheet pdf": pdf_text(document(organiser, scene, table.pk, "pdf")),
        "sheet xlsx": xlsx_text(document(organiser, scene, table.pk, "xlsx")),
        "seating plan": pdf_text(
            organiser.get(reverse("tournaments:round_pdf", args=[scene.slug, 2, "plan"])).content
        ),
        "table cards": pdf_text(
            organiser.get(reverse("tournaments:round_pdf", args=[scene.slug, 2, "cards"])).content
        ),
    }
    for where, text in texts.items():
        visible = flat(re.sub(r"<[^>]+>", " ", text))
        assert "Cinquième" in visible or "5e" in visible, where
        for wrong in ("5e place", "Fifth"):
            assert wrong not in visible, (where, wrong)
        assert fifth in visible or fifth.split()[-1] in visible, where
    header = flat(
        re.sub(
            r"<[^>]+>",
            " ",
            organiser.get(reverse("sheet", args=[scene.slug, table.pk])).content.decode(),
        )
    )
    assert re.search(r"\b5e\b", header), "the sheet's column of the fifth seat says 5e"
    assert not re.search(r"\bC \w\. ", header), "no 'C' for the fifth seat"


def _plain(name: str) -> str:
    """French order: ligatures spelt out, accents, case, hyphens and apostrophes ignored."""
    spelt = name.replace("Œ", "Oe").replace("œ", "oe").replace("Æ", "Ae").replace("æ", "ae")
    ascii_only = unicodedata.normalize("NFKD", spelt).encode("ascii", "ignore").decode()
    return "".join(c for c in ascii_only if c.isalnum() or c == " ").casefold().strip()


def test_the_printed_alphabetical_list_sorts_by_last_name(organiser, scene):
    content = organiser.get(reverse("tournaments:round_pdf", args=[scene.slug, 2, "plan"])).content
    pages = [page.extract_text() for page in PdfReader(io.BytesIO(content)).pages]
    first = next(i for i, p in enumerate(pages) if "Liste alphabétique" in p)
    listing = "\n".join(pages[first:])
    seats = Seat.objects.filter(table__round__number=2, table__round__tournament__slug=scene.slug)
    players = [s.registration for s in seats.select_related("registration")]
    positions = []
    for player in players:
        listed = f"{player.last_name} {player.first_name}"
        where = flat(listing).find(listed)
        assert where >= 0, f"{listed} is listed last name first"
        positions.append((where, player))
    in_order = [p for _, p in sorted(positions, key=lambda x: x[0])]
    keys = [(_plain(p.last_name), _plain(p.first_name)) for p in in_order]
    assert keys == sorted(keys), [p.last_name for p in in_order]


def test_a_rulings_versions_name_each_players_score_once(organiser, scene):
    """« Donne 2, version 1, saisie par arbitre1 à 21:52 : décision de l'arbitre, scores
    Gabriel Morel 30, Camille Michel −10, … (motif : Donne mal distribuée) », not « scores
    (motif : …) ; scores 30 / −10 / … » with the first « scores » empty."""
    url = reverse("sheet_history", args=[scene.slug, scene.penalty_table])
    for language, ruling, reason in (
        ("fr", "décision de l'arbitre, scores", "(motif : Donne mal distribuée)"),
        ("en", "referee's ruling, scores", "(reason: Donne mal distribuée)"),
    ):
        page = html.unescape(organiser.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode())
        text = flat(re.sub(r"<[^>]+>", " ", page))
        versions = text.split(ruling)
        assert len(versions) == 3, text  # what happened, and the deal's version
        for after in versions[1:]:
            assert re.match(r" [^\d(]+ 30, [^\d(]+ −10, ", after), after[:80]
        assert text.count(reason) == 2, text
        assert "scores (" not in text
