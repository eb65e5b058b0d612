"""The licensee list through its page and services: a CSV or Excel file previewed with its
columns mapped, every bad line named, all or nothing, the list replaced and traced; a player
registered by licence alone; a differing name or club flagged."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from openpyxl import Workbook

from tarot_club.errors import ServiceError
from tournaments import services
from tournaments.licensees.models import Licensee, LicenseeImport, LicenseeUpload
from tournaments.licensees.services import licensee_upload_store, licensees_replace
from tournaments.models import Registration

from .conftest import en_client, make_tournament, make_user

pytestmark = pytest.mark.django_db

CSV = (
    "N° Licence;Nom;Prénom;Club;Série;Sexe;Année de naissance\n"
    "08123456;Dupont;Marie;TC Lyon;1re série;F;1961\n"
    "09000001;Martin;Paul;Tarot Club Villeurbanne;Promotion;H;2008\n"
)
MAPPING = {
    "licence": 0,
    "last_name": 1,
    "first_name": 2,
    "club": 3,
    "series": 4,
    "sex": 5,
    "birth_year": 6,
}


def upload(client, content: bytes, name="licencies.csv"):
    return client.post(reverse("tournaments:licensees"), {"file": _file(content, name)})


def _file(content: bytes, name: str):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, content)


def listed(text: str = CSV, user=None) -> None:
    user = user or make_user("orga-liste", organiser=True)
    stored = licensee_upload_store(user=user, filename="l.csv", content=text.encode())
    licensees_replace(upload=stored, mapping=MAPPING, user=user)


def test_the_organiser_imports_the_list_through_the_preview(organiser_client, organiser):
    page = organiser_client.get(reverse("tournaments:licensees"))
    assert page.status_code == 200
    response = upload(organiser_client, CSV.encode())
    assert response.status_code == 200
    preview = response.context["preview"]
    assert preview.ok and preview.count == 2
    assert preview.mapping == MAPPING
    assert "Replace the list with 2 licensees" in response.content.decode()
    assert not Licensee.objects.exists()  # a preview writes nothing to the list
    data = {"upload": preview.upload.pk, "confirm": "1"}
    data.update({f"map_{k}": v for k, v in MAPPING.items()})
    done = organiser_client.post(reverse("tournaments:licensees"), data, follow=True)
    assert "2 licensees imported from licencies.csv (the list had 0)." in done.content.decode()
    marie = Licensee.objects.get(licence="08123456")
    assert (marie.last_name, marie.club, marie.series, marie.sex, marie.birth_year) == (
        "Dupont",
        "TC Lyon",
        "1re série",
        "F",
        1961,
    )
    trace = LicenseeImport.objects.get()
    assert (trace.imported_by, trace.lines, trace.replaced) == (organiser, 2, 0)
    assert not LicenseeUpload.objects.exists()


def test_columns_are_mapped_by_hand_when_the_headers_are_unknown(organiser_client):
    text = "A;B;C\n123;Dupont;F\n456;Durand;M\n"
    response = upload(organiser_client, text.encode())
    assert response.status_code == 422
    page = response.content.decode()
    assert "Choose the column of the licence." in page
    preview = response.context["preview"]
    data = {"upload": preview.upload.pk, "preview": "1", "map_licence": 0, "map_last_name": 1}
    data["map_sex"] = 2
    again = organiser_client.post(reverse("tournaments:licensees"), data)
    assert again.status_code == 200
    assert again.context["preview"].ok
    data["confirm"] = "1"
    organiser_client.post(reverse("tournaments:licensees"), data)
    assert sorted(Licensee.objects.values_list("licence", "sex")) == [("123", "F"), ("456", "M")]


def test_every_bad_line_is_named_and_nothing_is_imported(organiser_client):
    listed()
    text = CSV + "123;;Jean;;;;\n08123456;Doublon;;;;X;19\n"
    response = upload(organiser_client, text.encode())
    assert response.status_code == 422
    page = response.content.decode()
    assert "2 lines are wrong: correct the file and upload it again." in page
    assert "Line 4: no last name" in page
    assert ("Line 5: “X” is not a sex (F or M); “19” is not a year of birth (1900 to ") in page
    assert "licence 08123456 is already on line 2.</li>" in page  # one sentence a line
    assert "Replace the list" not in page
    preview = response.context["preview"]
    with pytest.raises(ServiceError) as caught:
        licensees_replace(upload=preview.upload, mapping=MAPPING, user=None)
    assert str(caught.value) == "2 lines are wrong: nothing was imported."
    assert Licensee.objects.count() == 2  # the list as it was


def test_an_excel_list_replaces_the_whole_list(organiser_client):
    listed()
    book = Workbook()
    sheet = book.active
    sheet.append(["Licence", "Nom", "Prénom", "Club", "Série", "Sexe", "Année de naissance"])
    sheet.append(["777", "Leroy", "Anne", "TC Dijon", "2e série", "F", 1975])
    content = io.BytesIO()
    book.save(content)
    response = upload(organiser_client, content.getvalue(), "licencies.xlsx")
    assert response.status_code == 200
    preview = response.context["preview"]
    data = {"upload": preview.upload.pk, "confirm": "1"}
    data.update({f"map_{k}": v for k, v in preview.mapping.items() if v is not None})
    organiser_client.post(reverse("tournaments:licensees"), data)
    assert list(Licensee.objects.values_list("licence", "birth_year")) == [("777", 1975)]
    assert LicenseeImport.objects.first().replaced == 2


def test_an_unreadable_file_is_said_and_kept_out(organiser_client):
    response = upload(organiser_client, b"%PDF-1.4", "liste.pdf")
    assert response.status_code == 422
    assert "Import a CSV file (.csv) or an Excel file (.xlsx)" in response.content.decode()
    assert not Licensee.objects.exists()


def test_only_organisers_may_import_the_list(referee_client, anonymous_client):
    url = reverse("tournaments:licensees")
    assert referee_client.get(url).status_code == 403
    assert referee_client.post(url, {"file": _file(CSV.encode(), "l.csv")}).status_code == 403
    assert anonymous_client.get(url).status_code == 302
    assert not LicenseeUpload.objects.exists()


def test_a_preview_of_another_organiser_is_not_reachable(organiser_client):
    other = make_user("orga-autre", organiser=True)
    stored = licensee_upload_store(user=other, filename="l.csv", content=CSV.encode())
    data = {"upload": stored.pk, "confirm": "1", **{f"map_{k}": v for k, v in MAPPING.items()}}
    response = organiser_client.post(reverse("tournaments:licensees"), data, follow=True)
    assert "This preview is no longer available" in response.content.decode()
    assert not Licensee.objects.exists()


def test_registering_by_licence_alone_fills_the_players_details(organiser_client, tournament):
    listed()
    url = reverse("tournaments:players", args=[tournament.slug])
    response = organiser_client.post(url, {"licence": "08123456"})
    assert response.status_code == 302
    registration = Registration.objects.get(tournament=tournament, licence="08123456")
    assert (
        registration.last_name,
        registration.first_name,
        registration.club_name,
        registration.series,
        registration.sex,
        registration.birth_year,
    ) == ("Dupont", "Marie", "TC Lyon", "1re série", "F", 1961)
    unknown = organiser_client.post(url, {"licence": "55555"})
    assert unknown.status_code == 422
    assert "Missing last name." in unknown.content.decode()
    assert organiser_client.post(url, {"last_name": "Sans", "licence": ""}).status_code == 302


def test_a_differing_name_or_club_is_flagged_on_the_players_page(organiser_client):
    listed()
    tournament = make_tournament(0, organiser=None)
    from tournaments.models import StaffMember

    user = make_user("orga-flag", organiser=True)
    StaffMember.objects.create(tournament=tournament, user=user, role="organiser")
    services.player_register(
        tournament=tournament,
        row=services.PlayerRow(last_name="Dupond", first_name="Marie", licence="08123456"),
    )
    services.player_register(
        tournament=tournament,
        row=services.PlayerRow(last_name="MARTIN", first_name="paul", licence="09000001"),
    )
    page = en_client(user).get(reverse("tournaments:players", args=[tournament.slug]))
    text = page.content.decode()
    assert text.count('class="badge warn listed-as"') == 1
    assert "FFT list: Marie Dupont, TC Lyon" in text


def test_a_differing_name_is_flagged_in_the_players_import_preview(organiser_client, tournament):
    listed()
    csv = "nom;prénom;club;licence\nDupond;Marie;TC Lyon;08123456\nMartin;Paul;;09000001\n"
    response = organiser_client.post(
        reverse("tournaments:import", args=[tournament.slug]),
        {"file": _file(csv.encode(), "joueurs.csv")},
    )
    page = response.content.decode()
    assert "differs from the licensee list: Marie Dupont, TC Lyon" in page
    assert page.count("differs from the licensee list") == 1


@pytest.mark.parametrize("players", [4, 12])
def test_the_players_page_with_listed_licences_has_a_fixed_query_count(
    players, django_assert_num_queries
):
    lines = "".join(f"{i:06d};Nom{i};Ana;Club {i};;;\n" for i in range(players))
    listed("licence;nom;prénom;club;série;sexe;année\n" + lines)
    tournament = make_tournament(0)
    for i in range(players):
        services.player_register(
            tournament=tournament,
            row=services.PlayerRow(last_name=f"Autre{i}", licence=f"{i:06d}"),
        )
    from tournaments.models import StaffMember

    user = make_user(f"orga-q-{players}", organiser=True)
    StaffMember.objects.create(tournament=tournament, user=user, role="organiser")
    client = en_client(user)
    url = reverse("tournaments:players", args=[tournament.slug])
    client.get(url)
    with django_assert_num_queries(6):
        response = client.get(url)
    assert response.content.decode().count('class="badge warn listed-as"') == players


def test_an_imported_player_takes_the_lists_serie_sex_and_year(organiser_client, tournament):
    listed()
    csv = "nom;prénom;club;licence\nDupont;Marie;TC Lyon;08123456\nNouveau;Léo;;\n"
    url = reverse("tournaments:import", args=[tournament.slug])
    preview = organiser_client.post(url, {"file": _file(csv.encode(), "joueurs.csv")})
    confirm = preview.context["token"]
    organiser_client.post(url, {"confirm": confirm})
    marie = Registration.objects.get(tournament=tournament, licence="08123456")
    assert (marie.series, marie.sex, marie.birth_year) == ("1re série", "F", 1961)
    leo = Registration.objects.get(tournament=tournament, last_name="Nouveau")
    assert (leo.series, leo.sex, leo.birth_year) == ("", "", None)
