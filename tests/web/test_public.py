"""Public pages: what players read on their phones, and what they must never see."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.cache import cache
from django.http import HttpResponse
from django.urls import reverse
from openpyxl import load_workbook

from scoring.demo import create_demo
from scoring.models import Deal
from scoring.standings import forget_standings, standings_data
from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def clear_cache():
    cache.clear()


@pytest.fixture
def played(db):
    return create_demo(players=12, rounds=2, deals=2, seed=4).tournament


def test_standings_page_ranks_by_total_and_shows_rounds(played, client):
    response = client.get(reverse("public:standings", args=[played.slug]))
    assert response.status_code == 200
    rows = list(response.context["table"].data)
    totals = [row["total"] for row in rows]
    assert totals == sorted(totals, reverse=True)
    expected = {s.entry.name.split(" (")[0]: s.total for s in standings_data(played).standings()}
    assert {row["name"].split(" (")[0]: row["total"] for row in rows} == expected
    assert "round_1" in rows[0] and "round_2" in rows[0]
    assert sum(totals) == 0  # no penalty: the whole tournament sums to zero


def test_after_round_one(played, client):
    response = client.get(reverse("public:standings", args=[played.slug]) + "?apres=1")
    rows = list(response.context["table"].data)
    assert rows and all("round_2" not in row and "round_1" in row for row in rows)


def test_public_pages_have_no_edit_control(played, client):
    registration = Registration.objects.filter(tournament=played).first()
    for url in [
        reverse("public:home", args=[played.slug]),
        reverse("public:standings", args=[played.slug]),
        reverse("public:round", args=[played.slug, 1]),
        reverse("public:player", args=[played.slug, registration.pk]),
        reverse("public:tv", args=[played.slug]),
        reverse("public:find_me", args=[played.slug]) + "?q=" + registration.last_name,
    ]:
        page = client.get(url).content.decode()
        assert 'method="post"' not in page.replace("set_language", "").split("</header>", 1)[1], url
        assert "/gestion/" not in page and "/table/" not in page, url


def test_hidden_standings_stay_hidden_until_the_end(played, client):
    played.visibility = "end"
    played.save()
    response = client.get(reverse("public:standings", args=[played.slug]))
    assert "table" not in response.context
    assert (
        client.get(reverse("public:standings_export", args=[played.slug, "xlsx"])).status_code
        == 404
    )
    tv = client.get(reverse("public:tv", args=[played.slug]))
    assert "rows" not in tv.context
    home = client.get(reverse("public:home", args=[played.slug]))
    assert "top" not in home.context
    registration = Registration.objects.filter(tournament=played).first()
    me = client.get(reverse("public:player", args=[played.slug, registration.pk]))
    assert me.context["standing"] is None and me.context["chart"] is None
    played.finished = True
    played.save()
    assert "table" in client.get(reverse("public:standings", args=[played.slug])).context


def test_every_players_page_gives_their_place_in_the_standings(played, client):
    """The first page after a change ranks only its player, later ones read the field's
    standings: every page says what the standings page says, rank and chart alike."""
    played.tie_breaks = "best_round"
    played.save()
    data = standings_data(played)
    standings = {s.entry.id: s for s in data.standings()}
    charts = data.progression()
    forget_standings()
    for registration in Registration.objects.filter(tournament=played).order_by("?"):
        context = client.get(reverse("public:player", args=[played.slug, registration.pk])).context
        assert context["standing"] == standings[registration.pk]
        expected = charts[registration.pk]
        assert [(n, t, r) for _x, _y, n, t, r in context["chart"]["points"]] == expected


def test_me_page_shows_table_deals_and_chart(played, client):
    registration = Registration.objects.filter(tournament=played).first()
    found = client.get(reverse("public:find_me", args=[played.slug]), {"q": registration.licence})
    assert registration in found.context["matches"]
    response = client.get(reverse("public:player", args=[played.slug, registration.pk]))
    context = response.context
    assert context["current"]["round"].number == 2
    assert [r["round"].number for r in context["rounds"]] == [2, 1]
    deals = Deal.objects.filter(sheet__table__seats__registration=registration).count()
    assert sum(len(r["deals"]) for r in context["rounds"]) == deals
    played_lines = [d for r in context["rounds"] for d in r["deals"] if "explanation" in d]
    assert played_lines and all(d["explanation"] for d in played_lines)
    assert context["chart"]["points"][-1][3] == context["standing"].total
    assert "<svg" in response.content.decode()
    # Each round's heading keeps its table number and its total apart (« table 2 · 0 pts »,
    # not « table 2 0 »).
    from django.utils.html import strip_tags

    text = " ".join(strip_tags(response.content.decode()).split())
    totals = [r for r in context["rounds"] if r.get("total") is not None]
    assert totals
    for r in totals:
        assert f"table {r['table'].number} · {r['total']} pts" in text


def test_unchanged_page_is_served_from_cache_and_answers_304(
    played, client, django_assert_num_queries
):
    url = reverse("public:standings", args=[played.slug])
    first = client.get(url)
    with django_assert_num_queries(1):  # the tournament's last change, nothing else
        again = client.get(url)
    assert again.content == first.content
    with django_assert_num_queries(1):
        assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    # HEAD revalidates like GET (monitors and some browsers check a page that way).
    assert client.head(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert client.head(url).status_code == 200


def test_phones_get_the_cached_page_gzipped(played, client, django_assert_num_queries):
    import gzip

    url = reverse("public:standings", args=[played.slug])
    plain = client.get(url)
    assert "Content-Encoding" not in plain
    packed = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert packed["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.content) == plain.content
    assert len(packed.content) < len(plain.content) / 3
    assert "Accept-Encoding" in packed["Vary"]
    assert packed["ETag"] != plain["ETag"]  # two representations, two tags
    with django_assert_num_queries(1):
        again = client.get(url, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=packed["ETag"])
    assert again.status_code == 304
    assert "Accept-Encoding" in again["Vary"] and again["Cache-Control"] == "no-cache"
    refused = client.get(url, HTTP_ACCEPT_ENCODING="gzip;q=0, identity")
    assert "Content-Encoding" not in refused and refused.content == plain.content
    anything = client.get(url, HTTP_ACCEPT_ENCODING="*")
    assert anything["Content-Encoding"] == "gzip"


def test_a_copy_held_uncompressed_still_answers_304(played, client):
    """Downloads that gzip cannot shrink (a PDF, a workbook) are sent as they are with the
    plain tag, even to clients that take gzip; revalidating that tag must give a 304."""
    url = reverse("public:standings", args=[played.slug])
    first = client.get(url)
    again = client.get(url, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again["ETag"] == first["ETag"]


def test_no_ones_messages_end_up_in_a_cached_public_page(played, client, django_user_model):
    from django.contrib.messages import constants
    from django.contrib.messages.storage.cookie import CookieStorage
    from django.test import RequestFactory

    request = RequestFactory().get("/")
    storage = CookieStorage(request)
    storage.add(constants.SUCCESS, "Donne 3 enregistrée.")
    probe = HttpResponse()
    storage.update(probe)
    client.cookies[storage.cookie_name] = probe.cookies[storage.cookie_name].value
    page = client.get(reverse("public:standings", args=[played.slug]))
    assert "Donne 3 enregistrée." not in page.content.decode()


def test_a_change_refreshes_the_page(played, client):
    from scoring.services import Actor, deal_record

    url = reverse("public:standings", args=[played.slug])
    client.get(url)
    from tournaments import services

    services.round_reopen(round_=played.round_set.get(number=2))
    deal = Deal.objects.filter(sheet__table__round__number=2).first()
    from scoring.scores import to_engine

    size = deal.sheet.table.seats.count()
    engine_deal = to_engine(deal, size)
    from dataclasses import replace

    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user("ref", password="pw-ref-123")
    deal_record(
        sheet=deal.sheet,
        number=deal.number,
        kind="played",
        deal=replace(
            engine_deal,
            points=engine_deal.points + 1 if engine_deal.points < 60 else engine_deal.points - 1,
        ),
        actor=Actor.staff(user),
        version=deal.version,
        reason="test",
    )
    fresh = client.get(url)
    expected = {s.entry.id: s.total for s in standings_data(played).standings()}
    assert {row["id"]: row["total"] for row in fresh.context["table"].data} == expected


@pytest.mark.parametrize("players", [8, 20])
def test_standings_and_me_pages_run_a_fixed_number_of_queries(
    db, client, players, django_assert_num_queries
):
    tournament = create_demo(players=players, rounds=2, deals=1, seed=2).tournament
    registration = Registration.objects.filter(tournament=tournament).first()
    me = reverse("public:player", args=[tournament.slug, registration.pk])
    # The page's version (the tournament's stamp), the tournament, then the registrations,
    # tables, seats (with their results), penalties, and whether it is a championship's stage.
    with django_assert_num_queries(7):
        client.get(reverse("public:standings", args=[tournament.slug]))
    # The version, the tournament, the player's own rounds, tables and deals; the standings are
    # kept from the page above. The first per-reader page also publishes the shared version
    # (``scoring/page_versions.py``): the registrations counted, the row written, once.
    with django_assert_num_queries(6 + 2):
        tag = client.get(me)["ETag"]
    with django_assert_num_queries(1):  # published: a phone holding the page, one statement
        assert client.get(me, HTTP_IF_NONE_MATCH=tag).status_code == 304
    forget_standings()
    cache.clear()
    with django_assert_num_queries(6 + 4):
        client.get(me)


def test_exports_are_numbers_and_names_never_formulas(db, client):
    tournament = create_demo(players=4, rounds=1, deals=1, seed=3).tournament
    registration = Registration.objects.filter(tournament=tournament).first()
    registration.last_name = '=HYPERLINK("http://evil","x")'
    registration.first_name = ""
    registration.save()
    Tournament.objects.filter(pk=tournament.pk).update(finished=True)

    xlsx = client.get(reverse("public:standings_export", args=[tournament.slug, "xlsx"]))
    sheet = load_workbook(io.BytesIO(xlsx.content)).active
    rows = list(sheet.iter_rows(min_row=2))
    names = [row[1] for row in rows]
    evil = next(cell for cell in names if "HYPERLINK" in str(cell.value))
    assert evil.data_type == "s" and evil.value.startswith("=HYPERLINK")
    assert all(isinstance(row[3].value, int) for row in rows)  # totals are numbers

    french = client.get(reverse("public:standings_export", args=[tournament.slug, "csv-fr"]))
    assert french.content.startswith(b"\xef\xbb\xbf")  # BOM for French Excel
    table = list(csv.reader(io.StringIO(french.content.decode("utf-8-sig")), delimiter=";"))
    assert any(cell.startswith("'=HYPERLINK") for row in table for cell in row)

    plain = client.get(reverse("public:standings_export", args=[tournament.slug, "csv"]))
    assert b"'=HYPERLINK" in plain.content

    pdf = client.get(reverse("public:standings_export", args=[tournament.slug, "pdf"]))
    assert pdf.content.startswith(b"%PDF")


def test_cached_public_pages_carry_no_csrf_token(played, client, django_user_model):
    """A public page is cached for everyone: a token in it would hand one visitor's CSRF
    secret (perhaps a referee's) to every other visitor."""
    staff = django_user_model.objects.create_superuser("chef", "c@example.org", "pw-chef-123")
    client.force_login(staff)  # the first visitor is staff: the worst case
    registration = Registration.objects.filter(tournament=played).first()
    for url in [
        reverse("public:home", args=[played.slug]),
        reverse("public:standings", args=[played.slug]),
        reverse("public:round", args=[played.slug, 1]),
        reverse("public:player", args=[played.slug, registration.pk]),
        reverse("public:tv", args=[played.slug]),
        reverse("public:find_me", args=[played.slug]) + "?q=ab",
    ]:
        page = client.get(url).content.decode()
        assert "csrfmiddlewaretoken" not in page and "X-CSRFToken" not in page, url


def test_public_language_switch_sets_the_cookie_and_returns(client, played):
    url = reverse("public:standings", args=[played.slug])
    response = client.get(reverse("switch_language", args=["en"]), {"next": url})
    assert response.status_code == 302 and response["Location"] == url
    assert response.cookies["django_language"].value == "en"
    assert "Standings" in client.get(url).content.decode()
    evil = client.get(reverse("switch_language", args=["en"]), {"next": "https://evil.example"})
    assert evil["Location"] == "/"
    assert client.get(reverse("switch_language", args=["xx"])).status_code == 404


def test_the_standings_table_is_written_as_django_tables2_writes_it(played, rf):
    """The one-pass rendering gives the same markup as {% render_table %} (whitespace aside):
    tied ranks, withdrawn players, empty cells shown as a dash, escaped names."""
    import re

    from django.template import RequestContext, Template

    from scoring.tables import StandingsTable, standings_rows

    registration = Registration.objects.filter(tournament=played).first()
    registration.last_name = "<b>Bold</b> & Co"
    registration.save()
    registration.status = Registration.Status.WITHDRAWN
    registration.save()
    data = standings_data(played)
    rows = standings_rows(data.standings(), data.rounds)
    rows[1]["rank"], rows[1]["tied"] = rows[0]["rank"], True  # a tie, whatever the demo gives
    table = StandingsTable(rows, rounds=data.rounds)
    reference = Template("{% load django_tables2 %}{% render_table table %}").render(
        RequestContext(rf.get("/"), {"table": table})
    )

    def compact(html):
        return re.sub(r"\s*([<>])\s*", r"\1", re.sub(r"\s+", " ", html)).replace("< ", "<")

    assert compact(table.html()) == compact(reference)
    assert table.values() == list(table.as_values())  # what the exports write
    assert "&lt;b&gt;Bold&lt;/b&gt; &amp; Co" in table.html()
    assert "—" in table.html()  # an empty penalty cell


def test_round_results_show_each_players_total_at_the_table(played, client):
    response = client.get(reverse("public:round", args=[played.slug, 1]))
    shown = {
        seat.registration_id: total
        for row in response.context["rows"]
        for seat, total in row["players"]
    }
    expected = {}
    for deal in Deal.objects.filter(
        sheet__table__round__number=1, sheet__table__round__tournament=played
    ):
        for seat in deal.sheet.table.seats.all():
            expected[seat.registration_id] = (
                expected.get(seat.registration_id, 0) + deal.scores[seat.position]
            )
    assert shown == expected and any(expected.values())


def test_standings_are_kept_per_version_and_recomputed_after_a_change(
    played, django_assert_num_queries, django_user_model
):
    from scoring import standings
    from scoring.models import ScoreSheet
    from scoring.services import Actor, penalty_add

    first = standings.current_standings(played)
    with django_assert_num_queries(0):
        assert standings.current_standings(played) is first
    registration = Registration.objects.filter(tournament=played).first()
    sheet = ScoreSheet.objects.get(table__round__number=2, table__seats__registration=registration)
    referee = django_user_model.objects.create_superuser("arb", "a@example.org", "pw-arb-123")
    from tournaments.services import round_reopen

    round_reopen(round_=sheet.table.round)  # a closed round's sheets change only once reopened
    penalty_add(
        sheet=sheet,
        registration=registration,
        amount=-50,
        reason="Retard",
        actor=Actor.staff(referee),
    )
    played.refresh_from_db()
    fresh = standings.current_standings(played)
    assert fresh is not first
    assert fresh.entry(registration.pk).total == first.entry(registration.pk).total - 50
    assert list(standings._recent).count(played.pk) == 1  # one version kept per tournament


def test_standings_count_the_rounds_each_player_sat_at_a_table_of_five(db):
    """13 players: a table of 5 every round. The count decides the fewer_fives tie-break."""
    from django.db.models import Count

    from tournaments.models import Seat

    tournament = create_demo(players=13, rounds=3, deals=5, seed=7).tournament
    expected: dict[int, int] = {}
    for registration_id, size in (
        Seat.objects.filter(round__tournament=tournament)
        .annotate(size=Count("table__seats"))
        .values_list("registration_id", "size")
    ):
        expected[registration_id] = expected.get(registration_id, 0) + (size == 5)
    entries = standings_data(tournament).entries
    assert {e.id: e.fives for e in entries} == expected
    assert sum(expected.values()) == 3 * 5


def test_a_players_page_names_the_team_once(db, client):
    """« Équipe : Équipe 3 », not « Équipe Équipe 3 », when the team is named for its number."""
    tournament = create_demo(players=8, rounds=1, deals=1, teams=2, seed=2).tournament
    registration = Registration.objects.filter(tournament=tournament).exclude(team=None).first()
    page = client.get(
        reverse("public:player", args=[tournament.slug, registration.pk]),
        HTTP_ACCEPT_LANGUAGE="fr",
    ).content.decode()
    team = str(registration.team)
    assert f"Équipe : {team}" in page
    assert f"Équipe {team}" not in page
