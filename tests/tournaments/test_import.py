"""Importing players from CSV or Excel: preview every line, import all or nothing."""

from __future__ import annotations

import io
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from openpyxl import Workbook

from tarot_club.errors import ServiceError
from tournaments import services
from tournaments.models import Player, Registration, Team

from .conftest import en_client, make_tournament

pytestmark = pytest.mark.django_db

GOOD_ROWS = [
    ("Lefèvre", "Élodie", "Tarot Club de Lyon", "100001"),
    ("Œuvray", "Noël", "Excuse Nantaise", ""),
    ("Dupont", "Zoé", "", "100003"),
]
# Latin-1 has no Œ (Windows-1252 has it).
LATIN_ROWS = [(r[0].replace("Œ", "O"), *r[1:]) for r in GOOD_ROWS]


@pytest.fixture
def setup(organiser):
    tournament = make_tournament(0, organiser=organiser)
    return tournament, en_client(organiser)


def import_url(tournament):
    return reverse("tournaments:import", args=[tournament.slug])


def upload(client, tournament, name, content):
    return client.post(
        import_url(tournament), {"file": SimpleUploadedFile(name, content)}, follow=False
    )


def messages_of(response):
    return [str(m) for m in response.context["messages"]]


def confirm_form_data(page) -> dict:
    """What the browser sends when the confirm button of this preview page is pressed."""
    html = page.content.decode()
    form = re.search(r'<form method="post">(.*?)</form>', html, re.S)
    assert form and 'name="confirm"' in form.group(1), "the preview page offers no confirmation"
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form.group(1)))
    fields.pop("csrfmiddlewaretoken", None)
    button = re.search(r'<button[^>]*name="confirm"[^>]*value="([^"]*)"', form.group(1))
    return {**fields, "confirm": button.group(1)}


def confirm(client, tournament, page):
    """Press the confirm button of preview ``page`` (sent to ``tournament``'s import page)."""
    return client.post(import_url(tournament), confirm_form_data(page), follow=True)


def forged_confirm(client, tournament):
    """A confirmation no preview page offered."""
    return client.post(import_url(tournament), {"confirm": "1"}, follow=True)


def offers_confirmation(page) -> bool:
    return 'name="confirm"' in page.content.decode()


def csv_bytes(rows, sep=",", encoding="utf-8", header=("Nom", "Prénom", "Club", "Licence")):
    lines = [sep.join(header), *(sep.join(r) for r in rows)]
    return ("\r\n".join(lines) + "\r\n").encode(encoding)


def xlsx_bytes(rows, header=("Nom", "Prénom", "Club", "Licence")):
    workbook = Workbook()
    sheet = workbook.active
    sheet.append(list(header))
    for row in rows:
        sheet.append(list(row))
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def imported(tournament):
    return sorted(
        Registration.objects.filter(tournament=tournament).values_list(
            "last_name", "first_name", "club_name", "licence"
        )
    )


def expected(rows):
    return sorted(tuple(row) for row in rows)


@pytest.mark.parametrize(
    ("name", "content", "rows"),
    [
        ("joueurs.csv", csv_bytes(GOOD_ROWS, ","), GOOD_ROWS),
        ("joueurs.csv", csv_bytes(GOOD_ROWS, ";"), GOOD_ROWS),
        ("JOUEURS.CSV", b"\xef\xbb\xbf" + csv_bytes(GOOD_ROWS, ";"), GOOD_ROWS),
        ("joueurs.csv", csv_bytes(LATIN_ROWS, ";", encoding="latin-1"), LATIN_ROWS),
        ("joueurs.csv", csv_bytes(GOOD_ROWS, ",", encoding="cp1252"), GOOD_ROWS),
        ("joueurs.xlsx", xlsx_bytes(GOOD_ROWS), GOOD_ROWS),
    ],
    ids=[
        "comma-utf8",
        "semicolon-utf8",
        "semicolon-bom",
        "semicolon-latin1",
        "comma-cp1252",
        "xlsx",
    ],
)
def test_clean_file_is_previewed_then_imported_on_confirmation(setup, name, content, rows):
    tournament, client = setup
    response = upload(client, tournament, name, content)
    assert response.status_code == 200
    preview = response.context["preview"]
    assert preview.ok and preview.file_errors == []
    assert [row.line for row in preview.rows] == [2, 3, 4]
    assert [
        (r.values["last_name"], r.values["first_name"], r.values["club"], r.values["licence"])
        for r in preview.rows
    ] == rows
    # Previewing writes nothing.
    assert not Registration.objects.filter(tournament=tournament).exists()
    assert not Player.objects.exists()

    page = response
    response = confirm(client, tournament, page)
    assert response.redirect_chain[-1][0] == reverse("tournaments:players", args=[tournament.slug])
    assert messages_of(response) == ["3 players imported."]
    assert imported(tournament) == expected(rows)
    assert set(tournament.registrations.values_list("status", flat=True)) == {"registered"}

    # The same confirmation again (a double click) imports nothing more.
    response = confirm(client, tournament, page)
    assert messages_of(response) == ["Upload the file again: the preview has expired."]
    assert tournament.registrations.count() == 3


def test_xlsx_numbers_are_read_as_text(setup):
    tournament, client = setup
    content = xlsx_bytes([("Petit", "Luc", "Club", 123456)])
    preview = upload(client, tournament, "joueurs.xlsx", content).context["preview"]
    assert preview.ok
    assert preview.rows[0].values["licence"] == "123456"


def test_every_bad_line_is_shown_with_its_reason_and_nothing_is_imported(setup):
    tournament, client = setup
    services.player_register(
        tournament=tournament, row=services.PlayerRow(last_name="Déjà", licence="500")
    )
    other = make_tournament(0, name="Ailleurs")
    services.player_register(
        tournament=other, row=services.PlayerRow(last_name="Autre", licence="600")
    )
    rows = [
        ("Bon", "Ali", "", "100"),  # 2: fine
        ("", "Sans", "Nom", ""),  # 3: missing last name
        ("Double", "Un", "", "200"),  # 4: fine (first with 200)
        ("Double", "Deux", "", "200"),  # 5: duplicate licence within the file
        ("Déjà", "", "", "500"),  # 6: already registered here
        ("Intrus", "", "", "600"),  # 7: licence of another player
        ("X" * 81, "", "", ""),  # 8: name too long
    ]
    players_before = Player.objects.count()
    response = upload(client, tournament, "joueurs.csv", csv_bytes(rows, ";"))
    assert response.status_code == 200
    preview = response.context["preview"]
    assert not preview.ok
    assert [row.line for row in preview.rows] == [2, 3, 4, 5, 6, 7, 8]
    errors = {row.line: " ".join(row.errors) for row in preview.rows}
    assert errors[2] == errors[4] == ""
    assert "missing last name" in errors[3]
    assert "duplicate licence 200 (also on line 4)" in errors[5]
    assert "licence 500 is already registered" in errors[6]
    assert "licence 600 belongs to another player" in errors[7]
    assert "Autre" not in errors[7]  # the holder is not named (issue 26)
    assert "longer than 80" in errors[8]
    assert [row.line for row in preview.bad_rows] == [3, 5, 6, 7, 8]
    html = response.content.decode()
    assert "duplicate licence 200 (also on line 4)" in html
    assert not offers_confirmation(response)

    # A confirmation forged after a bad preview imports nothing.
    response = forged_confirm(client, tournament)
    assert "Upload the file again" in messages_of(response)[0]
    assert Player.objects.count() == players_before
    assert tournament.registrations.count() == 1


def test_unknown_column_is_a_file_error(setup):
    tournament, client = setup
    content = csv_bytes([("Martin", "Léa", "7")], ",", header=("Nom", "Prénom", "Age"))
    response = upload(client, tournament, "joueurs.csv", content)
    preview = response.context["preview"]
    assert not preview.ok
    assert len(preview.file_errors) == 1
    assert "Unknown column “Age”" in preview.file_errors[0]
    assert not offers_confirmation(response)
    assert not Player.objects.exists()


def test_file_without_a_name_column_is_refused(setup):
    tournament, client = setup
    content = csv_bytes([("Léa", "Club")], ",", header=("Prénom", "Club"))
    preview = upload(client, tournament, "joueurs.csv", content).context["preview"]
    assert any("“nom”" in e for e in preview.file_errors)
    assert not preview.ok


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("joueurs.pdf", b"%PDF-1.4 not a list", "“joueurs.pdf” is neither"),
        ("joueurs.xlsx", b"\x00\x01garbage bytes, not a workbook", "not a readable Excel"),
        ("joueurs.xlsx", "nom,prénom\nMartin,Léa\n".encode(), "not a readable Excel"),
    ],
    ids=["pdf", "garbage-xlsx", "csv-named-xlsx"],
)
def test_file_that_is_neither_csv_nor_xlsx_gives_a_clear_message(setup, name, content, message):
    tournament, client = setup
    response = upload(client, tournament, name, content)
    assert response.status_code == 422
    errors = response.context["form"].errors["file"]
    assert len(errors) == 1 and message in errors[0]
    assert not offers_confirmation(response)
    assert not Player.objects.exists()


def test_zero_byte_file_is_refused(setup):
    tournament, client = setup
    response = upload(client, tournament, "joueurs.csv", b"")
    assert response.status_code == 422
    assert "file" in response.context["form"].errors
    assert not offers_confirmation(response)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b";;;\r\n;;;\r\n", "The file is empty."),
        ("Nom;Prénom\r\n".encode(), "The file has a header but no player."),
    ],
    ids=["blank", "header-only"],
)
def test_file_without_players_is_refused(setup, content, message):
    tournament, client = setup
    response = upload(client, tournament, "joueurs.csv", content)
    preview = response.context["preview"]
    assert preview.file_errors == [message]
    assert not preview.ok
    assert not offers_confirmation(response)
    assert not Player.objects.exists()


def test_confirm_without_preview_is_refused(setup):
    tournament, client = setup
    response = forged_confirm(client, tournament)
    assert response.redirect_chain[-1][0] == import_url(tournament)
    assert messages_of(response) == ["Upload the file again: the preview has expired."]
    assert not Registration.objects.exists()


def test_preview_of_one_tournament_cannot_be_confirmed_on_another(setup, organiser):
    tournament, client = setup
    second = make_tournament(0, organiser=organiser, name="Second")
    page = upload(client, tournament, "joueurs.csv", csv_bytes(GOOD_ROWS))
    response = confirm(client, second, page)
    assert "Upload the file again" in messages_of(response)[0]
    assert not Registration.objects.exists()
    # The preview is still good for its own tournament.
    confirm(client, tournament, page)
    assert tournament.registrations.count() == 3


def test_file_changed_meanwhile_imports_nothing(setup):
    """A licence registered between preview and confirmation: the import is all or nothing."""
    tournament, client = setup
    page = upload(client, tournament, "joueurs.csv", csv_bytes(GOOD_ROWS))
    services.player_register(
        tournament=tournament, row=services.PlayerRow(last_name="Dupont", licence="100003")
    )
    response = confirm(client, tournament, page)
    assert "The file has errors" in messages_of(response)[0]
    assert tournament.registrations.count() == 1
    assert not Player.objects.filter(last_name="Lefèvre").exists()


def test_team_tournament_import(organiser):
    tournament = make_tournament(0, organiser=organiser, format="teams_2")
    client = en_client(organiser)
    header = ("Nom", "Prénom", "Équipe")
    rows = [
        ("Ant", "A", "Les As"),
        ("Bee", "B", "Les As"),
        ("Cat", "C", "Les Rois"),
        ("Dog", "D", "Les Rois"),
    ]
    response = upload(client, tournament, "equipes.csv", csv_bytes(rows, ";", header=header))
    assert response.context["preview"].ok
    confirm(client, tournament, response)
    teams = {
        t.name: sorted(t.members.values_list("last_name", flat=True))
        for t in Team.objects.filter(tournament=tournament)
    }
    assert teams == {"Les As": ["Ant", "Bee"], "Les Rois": ["Cat", "Dog"]}


def test_team_of_the_wrong_size_is_shown_on_each_of_its_lines(organiser):
    tournament = make_tournament(0, organiser=organiser, format="teams_2")
    services.team_register(
        tournament=tournament,
        name="Existante",
        members=[services.PlayerRow(last_name="E1"), services.PlayerRow(last_name="E2")],
    )
    client = en_client(organiser)
    header = ("Nom", "Équipe")
    rows = [("Ant", "Trio"), ("Bee", "Trio"), ("Cat", "Trio"), ("Dog", ""), ("Eel", "Existante")]
    response = upload(client, tournament, "equipes.csv", csv_bytes(rows, ",", header=header))
    preview = response.context["preview"]
    errors = {row.line: " ".join(row.errors) for row in preview.rows}
    for line in (2, 3, 4):
        assert "team “Trio” has 3 players, not 2" in errors[line]
    assert "missing team" in errors[5]
    assert "team “Existante” already exists" in errors[6]
    assert not preview.ok
    assert Team.objects.count() == 1 and Player.objects.count() == 2


def test_team_tournament_needs_a_team_column(organiser):
    tournament = make_tournament(0, organiser=organiser, format="teams_4")
    preview = services.players_import_preview(
        tournament=tournament, filename="x.csv", content=csv_bytes([("A", "B", "", "")])
    )
    assert any("“équipe”" in e for e in preview.file_errors)
    with pytest.raises(ServiceError, match="The file has errors"):
        services.players_import(
            tournament=tournament, filename="x.csv", content=csv_bytes([("A", "B", "", "")])
        )
    assert not Player.objects.exists()


def test_oversized_file_is_refused(setup):
    tournament, client = setup
    content = csv_bytes([("Nom", "", "", "")] * 10) + b" " * (2 * 1024 * 1024)
    response = upload(client, tournament, "joueurs.csv", content)
    assert response.status_code == 422
    assert "larger than 2 MB" in response.context["form"].errors["file"][0]
    assert not Player.objects.exists()


def test_confirming_an_older_preview_imports_what_that_page_showed(setup):
    tournament, client = setup
    page_a = upload(client, tournament, "club-a.csv", csv_bytes([("Alpha", "A", "", "")]))
    upload(client, tournament, "club-b.csv", csv_bytes([("Bravo", "B", "", "")]))
    confirm(client, tournament, page_a)
    names = set(tournament.registrations.values_list("last_name", flat=True))
    # Either what page A listed was imported, or the stale confirmation was refused.
    assert names in ({"Alpha"}, set())


# -- Texts a database would refuse, and large files (issue 17) ---------------------------------


@pytest.mark.parametrize(
    ("row", "reason"),
    [
        (("Long", "Club", "C" * 121, ""), "club longer than 120 characters"),
        (("Nul\x00", "Octet", "", ""), "a control character (such as NUL) in the last name"),
        (("Nul", "Octet", "Club\x00", ""), "a control character (such as NUL) in the club"),
        (("Nul", "Octet", "", "L1\x00"), "a control character (such as NUL) in the licence"),
        (("Tab", "Pre\tnom", "", ""), "a control character (such as NUL) in the first name"),
    ],
    ids=["long-club", "nul-name", "nul-club", "nul-licence", "tab"],
)
def test_texts_the_database_refuses_are_shown_in_the_preview(setup, row, reason):
    """The preview was clean, then the confirmation answered 500 on PostgreSQL (a club over its
    limit, a NUL byte): the preview now shows the reason and offers no confirmation."""
    tournament, client = setup
    rows = [("Bon", "Ali", "Club", "100"), row]
    response = upload(client, tournament, "joueurs.csv", csv_bytes(rows, ";"))
    assert response.status_code == 200
    preview = response.context["preview"]
    assert not preview.ok
    assert [r.line for r in preview.bad_rows] == [3]
    assert reason in " ".join(preview.bad_rows[0].errors)
    assert reason in response.content.decode().replace("\x00", "")
    assert not offers_confirmation(response)
    assert forged_confirm(client, tournament).status_code == 200  # the form again, no 500
    assert not Player.objects.exists()
    with pytest.raises(ServiceError):
        services.players_import(
            tournament=tournament, filename="joueurs.csv", content=csv_bytes(rows, ";")
        )
    assert not Player.objects.exists()


def test_a_team_name_over_its_limit_is_shown_in_the_preview(organiser):
    tournament = make_tournament(0, organiser=organiser, format="teams_2")
    client = en_client(organiser)
    team = "É" * 121
    content = csv_bytes(
        [("Un", "A", "", "", team), ("Deux", "B", "", "", team)],
        ";",
        header=("Nom", "Prénom", "Club", "Licence", "Équipe"),
    )
    preview = upload(client, tournament, "equipes.csv", content).context["preview"]
    assert not preview.ok
    assert all("team name longer than 120 characters" in " ".join(r.errors) for r in preview.rows)
    with pytest.raises(ServiceError):
        services.team_register(
            tournament=tournament,
            name=team,
            members=[services.PlayerRow(last_name="Un"), services.PlayerRow(last_name="Deux")],
        )


def test_registering_one_player_checks_the_same_texts(setup):
    tournament, _ = setup
    for row, field in [
        (services.PlayerRow(last_name="Long", club="C" * 121), "club"),
        (services.PlayerRow(last_name="N\x00ul"), "last_name"),
    ]:
        with pytest.raises(ServiceError) as refused:
            services.player_register(tournament=tournament, row=row)
        assert refused.value.field == field
    assert not Player.objects.exists()


def many_rows(count: int, offset: int = 0) -> list[tuple[str, str, str, str]]:
    return [
        (f"Nom{i:05d}", f"Prénom{i}", f"Club {i // 7}", f"LIC{i:06d}")
        for i in range(offset, offset + count)
    ]


@pytest.mark.parametrize("format", ["individual", "teams_2"])
def test_an_import_costs_the_same_queries_for_20_or_400_lines(organiser, format):
    """Bulk statements: the number of queries does not grow with the file (a 50,000-line file
    took 11 minutes on PostgreSQL, one query per row and more)."""
    counts = []
    for size, offset in ((20, 0), (400, 1000)):
        tournament = make_tournament(0, organiser=organiser, format=format)
        # A player already known from another tournament, whose club changed since.
        known = make_tournament(0, name=f"Avant {format} {size}")
        services.player_register(
            tournament=known,
            row=services.PlayerRow(
                last_name=f"Nom{offset:05d}",
                first_name=f"Prénom{offset}",
                licence=f"LIC{offset:06d}",
            ),
        )
        rows = many_rows(size, offset)
        header = ("Nom", "Prénom", "Club", "Licence")
        if format == "teams_2":
            rows = [(*r, f"Équipe {i // 2}") for i, r in enumerate(rows)]
            header = (*header, "Équipe")
        content = csv_bytes(rows, ";", header=header)
        with CaptureQueriesContext(connection) as captured:
            count = services.players_import(
                tournament=tournament, filename="joueurs.csv", content=content
            )
        assert count == size
        counts.append(len(captured.captured_queries))
        registrations = Registration.objects.filter(tournament=tournament)
        assert registrations.count() == size
        assert Registration.history.filter(tournament_id=tournament.pk).count() == size
        assert imported(tournament) == expected([(r[0], r[1], r[2], r[3]) for r in rows])
        assert all(
            len(pin) == 4 and pin.isdigit() for pin in registrations.values_list("pin", flat=True)
        )
        # The known player is reused (not duplicated) and follows the club of the file.
        assert Player.objects.filter(licence=f"LIC{offset:06d}").count() == 1
        if format == "teams_2":
            assert Team.objects.filter(tournament=tournament).count() == size // 2
            assert not registrations.filter(team__isnull=True).exists()
    assert counts[0] == counts[1], counts
    assert counts[0] < 25, counts


def test_a_file_over_the_limit_is_refused_before_it_is_read(setup, monkeypatch, client):
    """The declared length is checked before the CSRF check reads the body; access rules
    still come first (anonymous: login page, a tournament outside reach: 404)."""
    from unittest import mock

    from django.http.multipartparser import MultiPartParser

    from tournaments.views.staff import ImportView

    tournament, organiser_client = setup
    monkeypatch.setattr(ImportView, "upload_limit", 10_000)
    big = csv_bytes([("Dupont", f"Prénom{i}", "", "") for i in range(1000)])
    assert len(big) > 10_000
    with mock.patch.object(MultiPartParser, "parse", side_effect=AssertionError("read")) as parse:
        response = upload(organiser_client, tournament, "joueurs.csv", big)
        assert response.status_code == 413
        assert "The file is larger than 2 MB." in response.content.decode()
        anonymous = upload(client, tournament, "joueurs.csv", big)
        assert anonymous.status_code == 302 and "/connexion/" in anonymous["Location"]
        other = make_tournament(0, name="Autre tournoi", prefix="Autre")
        assert upload(organiser_client, other, "joueurs.csv", big).status_code == 404
    assert parse.call_count == 0
    assert not Registration.objects.filter(tournament=tournament).exists()
    # A small file still reaches the preview.
    response = upload(organiser_client, tournament, "joueurs.csv", csv_bytes(GOOD_ROWS[:1]))
    assert response.status_code == 200 and offers_confirmation(response)


def test_the_preview_table_shows_each_line_escaped_cut_and_checked(setup):
    """The preview's rows are written in Python (a template loop over 5,000 lines took most of
    the import's time): each cell escaped and cut at 60 characters as before, each bad line
    marked with its reason, each likely duplicate flagged."""
    tournament, client = setup
    long_club = "Club " + "x" * 70
    rows = [
        ("<script>alert(1)</script>", "Ana & Bo", long_club, "100"),
        ("Martin", "Paul", "", ""),
        ("martin", "paul", "", ""),
        ("Trop", "Long" * 30, "", ""),
    ]
    response = upload(client, tournament, "joueurs.csv", csv_bytes(rows, ";"))
    assert response.status_code == 200
    html = response.content.decode()
    body = html[html.index("<tbody>") : html.index("</tbody>")]
    assert "<script>" not in body
    assert "<td>&lt;script&gt;alert(1)&lt;/script&gt;</td><td>Ana &amp; Bo</td>" in body
    assert f"<td>{long_club[:59]}…</td>" in body
    assert body.count("<tr") == 4
    assert body.count('<span class="badge ok">OK</span>') == 3
    assert '<tr class="bad"><td>5</td>' in body
    assert "first name longer than 80 characters" in body
    assert body.count('<span class="badge warn">') == 1
    assert "same name as line 3: the same person?" in body


def test_an_import_writes_one_history_record_per_player_by_whoever_imported(setup, organiser):
    """The history rows are copied by the database (INSERT ... SELECT): each registration's
    « + » record holds its values, the organiser who confirmed and the moment."""
    tournament, client = setup
    page = upload(client, tournament, "joueurs.csv", csv_bytes(GOOD_ROWS, ";"))
    assert client.post(import_url(tournament), confirm_form_data(page)).status_code == 302
    registrations = Registration.objects.filter(tournament=tournament)
    assert registrations.count() == len(GOOD_ROWS)
    for registration in registrations:
        (record,) = registration.history.all()
        assert record.history_type == "+"
        assert record.history_user == organiser
        assert record.history_change_reason is None
        assert abs((timezone.now() - record.history_date).total_seconds()) < 120
        fields = ("first_name", "last_name", "club_name", "licence", "pin", "status")
        assert [getattr(record, f) for f in fields] == [getattr(registration, f) for f in fields]
        assert (record.player_id, record.tournament_id) == (
            registration.player_id,
            tournament.pk,
        )
        assert record.instance == registration
