"""A player's série, sex and year of birth: typed on the registration, correction and team
forms, read from the CSV or Excel import, carried by the archive. A wrong value is named in the
user's language, what was typed stays, and nothing is written."""

from __future__ import annotations

import html
import io

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from openpyxl import Workbook

from scoring.archive import export_json, import_json
from scoring.prizes import services as prize_services
from scoring.prizes.models import Category, Prize, PrizeSettings
from tests.tournaments.conftest import en_client, make_tournament
from tests.tournaments.test_import import confirm, upload
from tournaments import services
from tournaments.models import Player, Registration, Tournament
from tournaments.services.tournaments import tournament_delete

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup(organiser):
    tournament = make_tournament(0, organiser=organiser)  # 14 March 2026
    return tournament, en_client(organiser)


def page(response) -> str:
    return html.unescape(response.content.decode())


def test_registering_a_player_with_series_sex_and_year(setup):
    tournament, client = setup
    url = reverse("tournaments:players", args=[tournament.slug])
    response = client.post(
        url, {"last_name": "Roux", "series": "Promotion", "sex": "F", "birth_year": "2009"}
    )
    assert response.status_code == 302
    registration = Registration.objects.get(tournament=tournament)
    assert (registration.series, registration.sex, registration.birth_year) == (
        "Promotion",
        "F",
        2009,
    )
    assert "Promotion Woman 2009" in page(client.get(url))  # the players list shows them


def test_a_year_of_birth_out_of_range_is_named_and_kept(setup):
    tournament, client = setup
    url = reverse("tournaments:players", args=[tournament.slug])
    response = client.post(url, {"last_name": "Vieux", "first_name": "Léon", "birth_year": "1890"})
    assert response.status_code == 422
    text = page(response)
    assert "Year of birth 1890: it must be between 1900 and 2026." in text
    assert 'value="1890"' in text and 'value="Léon"' in text
    assert not Registration.objects.filter(tournament=tournament).exists()
    response = client.post(url, {"last_name": "Futur", "birth_year": "2027"})
    assert "Year of birth 2027: it must be between 1900 and 2026." in page(response)


def test_in_french_the_message_reads_annee_de_naissance(setup, organiser):
    tournament, _client = setup
    url = reverse("tournaments:players", args=[tournament.slug])
    french = Client(HTTP_ACCEPT_LANGUAGE="fr")
    french.force_login(organiser)
    with translation.override("fr"):
        response = french.post(url, {"last_name": "Vieux", "birth_year": "1890"})
    assert response.status_code == 422
    assert "Année de naissance 1890 : " in page(response)


def test_a_series_not_in_the_list_is_refused(setup):
    tournament, client = setup
    url = reverse("tournaments:players", args=[tournament.slug])
    response = client.post(url, {"last_name": "X", "series": "Élite"})
    assert response.status_code == 422
    assert not Registration.objects.filter(tournament=tournament).exists()


def test_the_organisers_list_of_series_is_the_choice(setup):
    tournament, client = setup
    services.tournament_update(tournament=tournament, series_list="Open\nÉlite\n\nOpen")
    tournament.refresh_from_db()
    response = client.get(reverse("tournaments:players", args=[tournament.slug]))
    text = page(response)
    assert '<option value="Élite">Élite</option>' in text
    assert '<option value="Promotion">' not in text


def test_a_correction_changes_the_details_only_of_this_tournament(setup):
    tournament, client = setup
    registration = services.player_register(
        tournament=tournament, row=services.PlayerRow(last_name="Roux", first_name="Zoé")
    )
    url = reverse("tournaments:player_correct", args=[tournament.slug, registration.pk])
    form = page(client.get(url))
    assert 'name="birth_year"' in form
    response = client.post(
        url, {"last_name": "Roux", "first_name": "Zoé", "sex": "X", "birth_year": "abc"}
    )
    assert response.status_code == 422
    response = client.post(
        url,
        {
            "last_name": "Roux",
            "first_name": "Zoé",
            "sex": "F",
            "birth_year": "1955",
            "series": "Open",
        },
    )
    assert response.status_code == 302
    registration.refresh_from_db()
    assert (registration.series, registration.sex, registration.birth_year) == ("Open", "F", 1955)


def test_a_team_registers_its_members_details(organiser):
    tournament = make_tournament(0, organiser=organiser, format=Tournament.Format.TEAMS_OF_2)
    client = en_client(organiser)
    url = reverse("tournaments:players", args=[tournament.slug])
    data = {
        "name": "Les As",
        "last_name_0": "Un",
        "last_name_1": "Deux",
        "sex_0": "F",
        "birth_year_0": "1899",
        "birth_year_1": "1970",
    }
    response = client.post(url, data)
    assert response.status_code == 422
    assert "Year of birth 1899: it must be between 1900 and 2026." in page(response)
    assert not Registration.objects.filter(tournament=tournament).exists()
    data["birth_year_0"] = "1999"
    assert client.post(url, data).status_code == 302
    years = list(
        Registration.objects.filter(tournament=tournament)
        .order_by("last_name")
        .values_list("last_name", "sex", "birth_year")
    )
    assert years == [("Deux", "", 1970), ("Un", "F", 1999)]


CSV_BAD = (
    "nom;prénom;série;sexe;année de naissance\n"
    "Roux;Zoé;Promotion;F;1990\n"
    "Vieux;Léon;Open;H;1890\n"
    "Bizarre;Ana;Élite;X;19a0\n"
).encode()


def test_the_import_names_every_wrong_value_and_writes_nothing(setup):
    tournament, client = setup
    response = upload(client, tournament, "joueurs.csv", CSV_BAD)
    text = page(response)
    assert "Year of birth 1890: it must be between 1900 and 2026" in text
    assert "Série “Élite”: not one of this tournament's séries" in text
    assert "Sex “X”: F (woman) or M (man) expected" in text
    assert "Year of birth “19a0”: a year such as 1984 is expected" in text
    assert 'name="confirm"' not in text
    assert not Registration.objects.filter(tournament=tournament).exists()


def test_the_import_reads_the_details_from_csv_and_excel(setup):
    tournament, client = setup
    good = CSV_BAD.decode().splitlines()[:3]
    good[2] = "Vieux;Léon;open;h;1950"
    response = upload(client, tournament, "joueurs.csv", "\n".join(good).encode())
    confirm(client, tournament, response)
    found = set(
        Registration.objects.filter(tournament=tournament).values_list(
            "last_name", "series", "sex", "birth_year"
        )
    )
    assert found == {("Roux", "Promotion", "F", 1990), ("Vieux", "Open", "M", 1950)}
    other = make_tournament(0, organiser=tournament.created_by)
    workbook = Workbook()
    sheet = workbook.active
    sheet.append(["Nom", "Prénom", "Série", "Sexe", "Année de naissance"])
    sheet.append(["Blanc", "Eva", "2e série", "Femme", 2011])
    buffer = io.BytesIO()
    workbook.save(buffer)
    response = upload(client, other, "joueurs.xlsx", buffer.getvalue())
    confirm(client, other, response)
    registration = Registration.objects.get(tournament=other)
    assert (registration.series, registration.sex, registration.birth_year) == (
        "2e série",
        "F",
        2011,
    )


def test_the_archive_carries_details_categories_and_prizes(setup):
    tournament, _client = setup
    tournament = services.tournament_update(tournament=tournament, homologation="H-2026-042")
    services.player_register(
        tournament=tournament,
        row=services.PlayerRow(last_name="Roux", series="Promotion", sex="F", birth_year=2009),
    )
    category = prize_services.category_add(tournament=tournament, kind="youth", age=18)
    prize_services.category_add(
        tournament=tournament, kind="series", series="Promotion", position=2
    )
    prize_services.prizes_add(
        tournament=tournament, category=category, first_place=1, description="Coupe"
    )
    prize_services.prizes_add(tournament=tournament, category=None, first_place=1, last_place=2)
    prize_services.prize_settings_set(tournament=tournament, cumulative=True, scratch_position=4)

    def state(t):
        return (
            Tournament.objects.filter(pk=t.pk).values_list("homologation", "series_list").get(),
            list(
                Registration.objects.filter(tournament=t).values_list("series", "sex", "birth_year")
            ),
            list(
                Category.objects.filter(tournament=t).values_list(
                    "kind", "age", "series", "position"
                )
            ),
            sorted(
                Prize.objects.filter(tournament=t).values_list(
                    "category__kind", "place", "description"
                ),
                key=str,
            ),
            PrizeSettings.objects.filter(tournament=t)
            .values_list("cumulative", "scratch_position")
            .get(),
        )

    before = state(tournament)
    content = export_json(tournament)
    tournament_delete(tournament=tournament)
    Player.objects.all().delete()
    imported = import_json(content)
    assert state(imported) == before


def test_after_signing_the_details_may_change_the_name_may_not():
    from scoring.demo import create_demo
    from tarot_club.errors import ServiceError

    tournament = create_demo(players=4, rounds=1, deals=1, seed=3, play_rounds=1).tournament
    signed = Registration.objects.filter(tournament=tournament).first()
    same = {
        "last_name": signed.last_name,
        "first_name": signed.first_name,
        "club": signed.club_name,
        "licence": signed.licence,
    }
    services.registration_correct(
        registration=signed,
        row=services.PlayerRow(**same, series="Promotion", sex="F", birth_year=1960),
    )
    signed.refresh_from_db()
    assert (signed.series, signed.sex, signed.birth_year) == ("Promotion", "F", 1960)
    with pytest.raises(ServiceError, match="signed score sheets"):
        services.registration_correct(
            registration=signed,
            row=services.PlayerRow(**{**same, "last_name": "Autre"}, series="Open"),
        )
    signed.refresh_from_db()
    assert signed.series == "Promotion"
