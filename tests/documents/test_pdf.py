"""PDF documents, read back with pypdf: what a player or referee would read on paper."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from dataclasses import replace
from datetime import UTC, datetime

import pytest
import segno
from pypdf import PdfReader

from scoring.documents.data import SeatingPlan, SheetDeal, SheetPlayer
from scoring.documents.pdf import (
    escape,
    score_sheet_pdf,
    seating_plan_pdf,
    standings_pdf,
    table_cards_pdf,
)
from scoring.documents.pdf.base import clean as _clean
from scoring.documents.pdf.base import qr_path as _qr_path

from .conftest import (
    EAST,
    FIVE_CALLED_TOTALS,
    FIVE_DEAD_TOTALS,
    FOUR_RUNNING,
    FOUR_TOTALS,
    NORTH,
    SOUTH,
    THREE_TOTALS,
    TOURNAMENT,
    WEST,
    table_of_four,
    table_of_three,
)


def pages(pdf: bytes) -> list[str]:
    assert pdf.startswith(b"%PDF-")
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]


def one_page(pdf: bytes) -> str:
    texts = pages(pdf)
    assert len(texts) == 1
    return texts[0]


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def cells(text: str) -> list[str]:
    """The extracted text split into its lines (each table cell is drawn as its own line)."""
    return [line.strip() for line in text.splitlines() if line.strip()]


# --- the score sheet ---------------------------------------------------------------------------


def test_sheet_shows_header_players_and_rule_set(four):
    text = one_page(score_sheet_pdf([four]))
    for expected in (
        "FEUILLE DE MARQUE",
        TOURNAMENT,
        "samedi 17 mai 2025",
        "Salle des fêtes, Œuilly",
        "Position 2",
        "Table 7",
        "FFT (règlement officiel)",
        "Arbitre : Chloé Arbitre",
    ):
        assert expected in text, expected
    lines = cells(text)
    # Names print exactly as typed: markup, quotes, a formula, accents and œ.
    for name in (NORTH, EAST, SOUTH, WEST):
        assert name in lines, name
    for club in ("Tarot Club d'Évry", "Les « As » du 18", "Club €uro"):
        assert club in lines
    assert "012345" in lines
    assert "N — Nord" in lines and "O — Ouest" in lines


def test_sheet_shows_every_deal_score_running_total_and_bilan(four):
    lines = cells(one_page(score_sheet_pdf([four])))
    for deal in four.deals:
        for score in deal.scores:
            assert signed(score) in lines
    for running in FOUR_RUNNING:
        for value in running:
            assert str(value) in lines
    # The bilan row: each total once more, with its sign, after the label.
    after = lines[lines.index("Bilan de la position (total des donnes)") + 1 :]
    assert after[:4] == [signed(t) for t in FOUR_TOTALS]


def test_sheet_shows_deal_inputs(four):
    text = one_page(score_sheet_pdf([four]))
    lines = cells(text)
    for expected in ("Garde", "Petite", "Garde sans", "49", "45", "40", "Attaque"):
        assert expected in lines
    assert f"simple : {EAST}" in text.replace("\n", " ")
    # Passed deal and referee deal are marked, with the referee's reason.
    assert "Donne passée : redistribuée, sans score" in lines
    assert "4*" in lines
    assert (
        "* Donne 4 décidée par l'arbitre — motif : Carte retournée pendant la donne : résultat "
        "fixé par l'arbitre" in text
    )


def test_sheet_zero_sum_check_penalties_and_amendment(four):
    text = one_page(score_sheet_pdf([four]))
    assert "Contrôle : ∑ = 0 — correct, la somme des bilans est nulle" in text
    assert f"Pénalité (hors contrôle de la somme nulle) — {SOUTH} : Retard à la table" in text
    lines = cells(text)
    assert "-20" in lines
    after = lines[lines.index("Total après pénalités") + 1 :]
    assert after[:4] == ["+273", "+233", "-211", "-315"]
    assert "MODIFIÉE APRÈS SIGNATURE" in text
    assert "motif : Erreur de saisie des points (donne 3)" in text
    assert "Modifiée après signature" in text  # the status line


def test_sheet_signatures_fingerprint_code_and_url(four):
    text = one_page(score_sheet_pdf([four]))
    # 15:02 UTC is 17:02 in Paris in May.
    assert "Signé le 17/05/2025 à 17:02" in text
    assert "par code PIN" in text and "sur papier" in text
    assert "Arbitre — Chloé Arbitre" in text
    assert f"Code : {four.verification_code}" in text
    assert four.fingerprint[:32] in text and four.fingerprint[32:] in text
    assert four.verification_url in text.replace("\n", "")
    # The footer repeats where the page belongs and its code.
    assert f"code de vérification {four.verification_code}" in text


def test_a_sheet_player_carries_no_pin():
    """Documents a table shares are made from SheetPlayer: it has no PIN to print."""
    from dataclasses import fields

    from scoring.documents.data import SheetPlayer

    assert "pin" not in {f.name for f in fields(SheetPlayer)}


def test_unsigned_sheet_says_so(five_dead):
    text = one_page(score_sheet_pdf([five_dead]))
    assert "Pas encore d'empreinte" in text
    assert "Code :" not in text


def test_unbalanced_sheet_shows_a_visible_error(unbalanced):
    text = one_page(score_sheet_pdf([unbalanced]))
    assert "ERREUR : ∑ = +10 ≠ 0" in text
    assert "correct" not in text


def test_table_of_five_dead_seat(five_dead):
    lines = cells(one_page(score_sheet_pdf([five_dead])))
    assert "Mort" in lines
    assert lines.count("mort") == 2  # the dealer's cell, each deal
    after = lines[lines.index("Bilan de la position (total des donnes)") + 1 :]
    assert after[:5] == [signed(t) for t in FIVE_DEAD_TOTALS]
    assert "5e — Cinquième" in lines and "Zoé Été" in lines
    # Each player's deals played: North and East each sat out one of the two deals.
    played = lines[lines.index("Donnes jouées") + 1 :]
    assert played[:5] == ["1", "1", "2", "2", "2"]


def test_blank_and_paper_sheets_count_no_deals_played(blank, paper):
    for sheet in (blank, paper):
        assert "Donnes jouées" not in cells(one_page(score_sheet_pdf([sheet])))


def test_table_of_five_called_partner(five_called):
    text = one_page(score_sheet_pdf([five_called]))
    lines = cells(text)
    assert "Partenaire" in text and "Mort" not in lines
    # The called partner, by seat and name (shortened to fit the column).
    assert any(line.startswith("S Claire") for line in lines)
    assert "40,5" in lines  # half point, French decimal comma
    after = lines[lines.index("Bilan de la position (total des donnes)") + 1 :]
    assert after[:5] == [signed(t) for t in FIVE_CALLED_TOTALS]
    assert "Partie à 5 (roi appelé, club)" in text


def test_table_of_three(three):
    lines = cells(one_page(score_sheet_pdf([three])))
    after = lines[lines.index("Bilan de la position (total des donnes)") + 1 :]
    assert after[:3] == [signed(t) for t in THREE_TOTALS]
    assert "Ignace Šimek" in lines and "Jérôme Ñúñez" in lines


def test_blank_sheet_has_header_players_and_empty_lines_only(blank):
    text = one_page(score_sheet_pdf([blank]))
    lines = cells(text)
    for name in (NORTH, EAST, SOUTH, WEST):
        assert name in lines
    assert "Feuille vierge — à remplir à la main" in text
    assert "Position 3" in text and "Table 4" in text
    assert [str(n) for n in range(1, 6)] == [line for line in lines if line in "12345"][:5]
    assert "Contrôle : ∑ des bilans = ____________ (doit être égale à 0)" in text
    # No score, no total, no sign anywhere (licences are the only other numbers).
    assert not re.search(r"(?<![\w-])[+-]\d", text)
    assert "correct" not in text and "ERREUR" not in text and "Signé le" not in text


def test_paper_mode_prints_totals_only(paper):
    text = one_page(score_sheet_pdf([paper]))
    lines = cells(text)
    assert "Feuille tenue sur papier" in text
    after = lines[lines.index("Bilan de la position (total des donnes)") + 1 :]
    assert after[:4] == ["+120", "-40", "-30", "-50"]
    assert "Garde" not in lines and "Donne passée" not in text
    assert "Contrôle : ∑ = 0" in text


def test_bundle_one_page_per_sheet_from_a_generator(all_sheets):
    pdf = score_sheet_pdf(sheet for sheet in all_sheets)
    texts = pages(pdf)
    assert len(texts) == len(all_sheets)
    for sheet, text in zip(all_sheets, texts, strict=True):
        assert f"Position {sheet.round_number}" in text
        assert f"Table {sheet.table_number}" in text
        assert f"Page {texts.index(text) + 1}" in text


def test_big_bundle_stays_one_page_per_sheet():
    sheets = [replace(table_of_four(), table_number=n) for n in range(1, 23)]  # fixed-mask QR
    reader = PdfReader(io.BytesIO(score_sheet_pdf(iter(sheets))))
    assert len(reader.pages) == 22
    assert "Table 22" in reader.pages[-1].extract_text()


def test_long_sheet_is_shrunk_onto_one_page(four):
    deals = tuple(replace(four.deals[k % 4], number=k + 1) for k in range(24))
    long = replace(four, deals=deals, penalties=four.penalties * 4)
    text = one_page(score_sheet_pdf([long]))
    assert "24*" in cells(text)  # the last deal (a referee's) is there
    assert "Total après pénalités" in text


def test_empty_bundle_is_a_valid_pdf():
    assert "Aucune feuille de marque." in one_page(score_sheet_pdf([]))


def test_hostile_text_prints_as_typed(four):
    names = ["<b>gras</b> & <i>", "</para><para>", "&amp; &lt;", "Ligne 1\nLigne 2\r\tfin"]
    players = tuple(replace(p, name=n) for p, n in zip(four.players, names, strict=True))
    players = (replace(players[0], club="Nul\x00\x07caractère"), *players[1:])
    sheet = replace(
        four,
        players=players,
        deals=(),
        penalties=(),
        signatures=(),
        referee=names[0],
        place="Łukasz Ściśle",
    )
    text = one_page(score_sheet_pdf([sheet]))
    lines = cells(text)
    assert "<b>gras</b> & <i>" in lines
    assert "</para><para>" in lines
    assert "&amp; &lt;" in lines
    assert "Ligne 1 Ligne 2  fin" in lines  # one line, nothing lost
    assert "Nulcaractère" in lines  # control characters dropped
    # Letters Helvetica lacks degrade to their base letter instead of a box.
    assert "Lukasz Scisle" in text
    assert _clean("Łukasz Ściśle → ok") == "Lukasz Scisle → ok"


def test_escape_for_paragraphs():
    assert (
        escape("<Dupont & Cie> \"x\" 'y'") == "&lt;Dupont &amp; Cie&gt; &quot;x&quot; &#39;y&#39;"
    )
    assert escape(None) == ""


def test_only_known_fonts_are_used(four):
    reader = PdfReader(io.BytesIO(score_sheet_pdf([four, table_of_three()])))
    fonts = set()
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            fonts.add(str(font.get_object()["/BaseFont"]))
    standard = {"/Helvetica", "/Helvetica-Bold", "/Helvetica-Oblique", "/Courier", "/Courier-Bold"}
    extra = {f for f in fonts if f not in standard}
    # Everything else is the Vera subset embedded for ∑ and ≠ (or Symbol for an arrow).
    assert all("Vera" in f or f == "/Symbol" for f in extra), fonts


def test_qr_code_encodes_the_url():
    url = "https://tarot.example.org/verifier/feuille/8f3a2c/"
    for fixed in (False, True):
        size, path = _qr_path(url, fixed)
        kw = {"mask": 0} if fixed else {}
        matrix = segno.make_qr(url, error="m", **kw).matrix
        assert size == len(matrix)
        drawn = [[0] * size for _ in range(size)]
        for op in path.splitlines()[:-1]:
            x, y, w, _h, _re = op.split()
            for i in range(int(w)):
                drawn[int(y)][int(x) + i] = 1
        assert drawn == [[bit & 1 for bit in row] for row in matrix]


# --- seating plan, table cards, standings ------------------------------------------------------


def test_seating_plan_by_table_then_alphabetical(plan):
    texts = pages(seating_plan_pdf(plan))
    assert len(texts) == 2
    by_table = texts[0]
    assert "Placement — position 2" in by_table
    for number in (7, 8, 9):
        assert f"Table {number}" in by_table
    for table in plan.tables:
        for player in table.players:
            assert player.name in by_table
    listing = cells(texts[1])
    order = [
        "Amélie Poulain",
        "Bérénice Cœur",
        "Çédric Noël",
        "Dominique « Dom » Faure",
        EAST,  # <Dupont & Cie>, filed under D
        NORTH,  # Élodie, filed under E
        "Hélène Brûlé",
        "Ignace Šimek",
        WEST,
        "Jérôme Ñúñez",
        "Zoé Été",
        SOUTH,  # "=1+1": no letter, filed last
    ]
    positions = [listing.index(name) for name in order]
    assert positions == sorted(positions)
    # Each entry shows its table and seat.
    i = listing.index(NORTH)
    assert listing[i + 2 : i + 4] == ["7", "Nord"]


def test_table_cards_one_per_table_with_players_and_link(plan):
    texts = pages(table_cards_pdf(plan))
    assert len(texts) == 2  # two cards per A4 page
    everything = "\n".join(texts)
    for table in plan.tables:
        assert str(table.number) in cells(everything)
        for player in table.players:
            assert player.name in everything
        if table.sheet_url:
            assert table.sheet_url in re.sub(r"\s+", "", everything)
    assert "POSITION" in everything and "CODE PIN PERSONNEL" not in everything
    assert "Lien privé de la table : ne pas diffuser" in everything


def test_pin_slips_one_small_slip_per_player():
    from scoring.documents.data import PinSlip, PinSlips
    from scoring.documents.pdf import pin_slips_pdf

    slips = PinSlips(
        TOURNAMENT,
        datetime(2025, 5, 17, tzinfo=UTC).date(),
        tuple(
            PinSlip(f"Joueur <{i}> Ñúñez", f"{1000 + i * 37:04d}", club="Club €uro", team="")
            for i in range(30)
        ),
    )
    texts = pages(pin_slips_pdf(slips))
    assert len(texts) == 2  # 24 slips per A4 page
    for i, slip in enumerate(slips.slips):
        text = texts[i // 24]
        assert slip.name in text and slip.pin in cells(text)
        assert cells(text).count(slip.pin) == 1
    assert texts[0].count("CODE PIN PERSONNEL") == 24 and texts[1].count("CODE PIN PERSONNEL") == 6
    assert TOURNAMENT in texts[0]
    empty = PinSlips(TOURNAMENT, datetime(2025, 5, 17, tzinfo=UTC).date(), ())
    assert "Aucun joueur." in one_page(pin_slips_pdf(empty))


def test_table_cards_with_no_table():
    plan = SeatingPlan(TOURNAMENT, datetime(2025, 5, 17, tzinfo=UTC).date(), 1, ())
    assert "Aucune table." in one_page(table_cards_pdf(plan))
    assert "Aucune table." in pages(seating_plan_pdf(plan))[0]


def test_standings_repeat_headers_and_print_text_as_typed():
    headers = ["Rang", "Joueur", "Club", "Total"]
    rows = [[i, f"Joueur <{i}> & « Cie »", "=1+1", 1000 - 37 * i] for i in range(1, 121)]
    texts = pages(standings_pdf("Classement <général> & final", "Après 5 positions", headers, rows))
    assert len(texts) > 1
    assert "Classement <général> & final" in texts[0]
    assert "Après 5 positions" in texts[0]
    for text in texts:  # the header row repeats on every page
        assert {"Rang", "Joueur", "Club", "Total"} <= set(cells(text))
    assert "Joueur <120> & « Cie »" in texts[-1]
    assert "-3440" in texts[-1]


def test_standings_wide_table_is_landscape():
    headers = [f"P{i}" for i in range(1, 9)]
    pdf = standings_pdf("Classement", "", headers, [[1, "A", 2, 3, 4, 5, 6, 7]])
    page = PdfReader(io.BytesIO(pdf)).pages[0]
    assert page.mediabox.width > page.mediabox.height


def test_sheet_with_unknown_names_in_deals(four):
    """A name on a deal that is not among the players (e.g. a substitute) still prints."""
    deal = SheetDeal(
        number=9,
        kind="played",
        dealer="Remplaçant",
        taker="Remplaçant",
        contract="garde",
        oudlers=1,
        scores=(0, 0, 0, 0),
    )
    sheet = replace(four, deals=(*four.deals, deal))
    assert "Remplaçant" in one_page(score_sheet_pdf([sheet]))


@pytest.mark.parametrize("count", [1, 2, 3])
def test_small_tables_render(count):
    players = tuple(SheetPlayer(s, f"Joueur {s}") for s in "NES"[:count])
    sheet = replace(table_of_three(), players=players, deals=())
    assert "Joueur N" in one_page(score_sheet_pdf([sheet]))


@pytest.mark.skipif(
    not (shutil.which("pdftoppm") and shutil.which("zbarimg")),
    reason="needs poppler-utils (pdftoppm) and zbar-tools (zbarimg)",
)
def test_printed_qr_codes_scan(tmp_path, four, plan):
    """Rasterise the pages as a printer would and scan them with a real QR reader."""
    big = [replace(four, verification_url=f"https://tarot.example.org/v/{n}/") for n in range(21)]
    cases = [
        (score_sheet_pdf([four]), 1, four.verification_url),
        (score_sheet_pdf(big), 21, "https://tarot.example.org/v/20/"),  # fixed-mask codes
        (table_cards_pdf(plan), 1, plan.tables[0].sheet_url),
    ]
    for index, (pdf, page, url) in enumerate(cases):
        path = tmp_path / f"doc{index}.pdf"
        path.write_bytes(pdf)
        subprocess.run(
            ["pdftoppm", "-r", "100", "-png", "-f", str(page), "-l", str(page), path, path],
            check=True,
        )
        (png,) = tmp_path.glob(f"doc{index}.pdf*.png")
        done = subprocess.run(
            ["zbarimg", "-q", "--raw", png], capture_output=True, text=True, check=False
        )
        assert url in done.stdout.splitlines(), (url, done.stdout)
