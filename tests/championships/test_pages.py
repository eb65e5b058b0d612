"""The championship's pages as people read them: the public page (fixed queries whatever the
field), the cut line and the rules in words on the stage's standings, TV and exports, and the
organiser's preview then close."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from scoring.championship_report import championship_report
from scoring.demo import create_demo
from scoring.standings import forget_standings
from tournaments.championships import selectors
from tournaments.championships import services as championship_services
from tournaments.championships.models import CarriedPoints
from tournaments.models import Registration

from .conftest import client_for, make_championship, organiser, tournament_of

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("players", "stages"), [(12, 1), (20, 3)])
def test_the_public_page_runs_a_fixed_number_of_queries(players, stages, django_assert_num_queries):
    championship, (first, *_next) = make_championship(players, cut=8, next_sizes=(8,) * stages)
    client = client_for()
    url = reverse("championships:public", args=[championship.slug])
    forget_standings()
    # The championship, its stages, and for all its stages at once: their groups, withdrawals,
    # invitations, registrations' série, closed rounds and standings (4 queries), whatever the
    # number of stages, groups and players.
    with django_assert_num_queries(11):
        response = client.get(url)
    text = response.content.decode()
    assert "The top 8 go on, over the whole stage." in text
    assert "Each qualifier carries half their points into the next stage." in text
    assert "8 qualifiers as things stand" in text
    names = [row.name for row in selectors.stage_state(first).qualified_rows]
    assert all(name in text for name in names)
    # A closed stage names who went on as the next stage registered them: one query more for
    # all the closed stages.
    championship_services.stage_close(stage=first)
    forget_standings()
    with django_assert_num_queries(12):
        text = client.get(url).content.decode()
    assert all(name in text for name in names)


@pytest.mark.parametrize(("players", "stages"), [(12, 1), (20, 3)])
def test_the_organisers_pages_run_a_fixed_number_of_queries(
    players, stages, django_assert_num_queries
):
    by = organiser()
    championship, (first, *_next) = make_championship(
        players, cut=8, next_sizes=(8,) * stages, by=by
    )
    client = client_for(by)
    pages = [
        (reverse("championships:staff", args=[championship.slug]), 7),
        # the close page looks up the next stage once (its preview and its page share it)
        (reverse("championships:stage_close", args=[first.pk]), 15),
    ]
    for url, queries in pages:
        client.get(url)
        forget_standings()
        with django_assert_num_queries(queries):
            assert client.get(url).status_code == 200
    # The results report is made by a background job: its gathering is as fixed.
    forget_standings()
    with django_assert_num_queries(12):
        assert championship_report(championship)["stages"]


def test_the_cut_line_and_the_rules_on_the_standings_tv_and_exports():
    championship, (first, _second) = make_championship(12, cut=8)
    tournament = tournament_of(first)
    state = selectors.stage_state(first)
    last_in = state.qualified_rows[-1]
    client = client_for()
    page = client.get(reverse("public:standings", args=[tournament.slug])).content.decode()
    assert page.count('class="even cut-line"') + page.count('class="odd cut-line"') == 1
    line = page.index("cut-line")
    assert last_in.name in page[line : page.index("</tr>", line)]  # under the last one in
    assert "The top 8 go on, over the whole stage." in page
    assert f"/championnat/{championship.slug}/" in page
    tv = client.get(reverse("public:tv", args=[tournament.slug])).content.decode()
    assert tv.count("tv-row cut-line") == 1
    assert "Qualification line" in tv
    assert "Each qualifier carries half their points into the next stage." in tv
    exported = client.get(reverse("public:standings_export", args=[tournament.slug, "csv"]))
    rows = list(csv.reader(io.StringIO(exported.content.decode())))
    header = rows[0]
    assert "Qualified" in header
    marked = [r for r in rows[1:13] if r[header.index("Qualified")] == "Q"]
    assert len(marked) == 8
    flat = "\n".join(",".join(r) for r in rows)
    assert "Each qualifier carries half their points into the next stage." in flat
    pdf = client.get(reverse("public:standings_export", args=[tournament.slug, "pdf"]))
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf.content)).pages)
    assert "The top 8 go on" in " ".join(text.split())


def test_a_stage_marks_a_copy_of_the_kept_standings_other_tournaments_share_them():
    """The standings rows are made once per version and shared by every reader's page; a stage's
    page marks who goes on, so it marks a copy (another reader's page, or a tournament that is
    no stage, never sees its marks), and a tournament that is no stage copies nothing."""
    _championship, (first, _second) = make_championship(12, cut=8)
    plain = create_demo(players=8, rounds=1, deals=2, play_rounds=1, seed=5).tournament

    def rows_for(tournament, reader: int) -> list[dict]:
        url = reverse("public:standings", args=[tournament.slug])
        response = client_for().get(f"{url}?joueur={reader}")
        return response.context["parts"][0][0].rows

    for tournament in (tournament_of(first), plain):
        readers = list(tournament.registrations.values_list("pk", flat=True)[:2])
        one, other = (rows_for(tournament, reader) for reader in readers)
        assert [row["id"] for row in one] == [row["id"] for row in other]
        if tournament == plain:
            assert one[0] is other[0] and "qualified" not in one[0]  # shared, unmarked
        else:
            assert one[0] is not other[0]
            assert [row["qualified"] for row in one].count("Q") == 8


def test_the_organiser_previews_then_closes_the_stage():
    by = organiser()
    championship, (first, second) = make_championship(12, cut=8, by=by)
    client = client_for(by)
    url = reverse("championships:stage_close", args=[first.pk])
    preview = client.get(url)
    assert preview.status_code == 200
    text = preview.content.decode()
    assert "8 players go on to « Étape 2 »" in text
    assert "in a snake that spreads the top players" in text
    refused = client.post(url, {"shown": "stale"})
    assert refused.status_code == 422
    assert "The standings changed since the preview" in refused.content.decode()
    assert not Registration.objects.filter(tournament=tournament_of(second)).exists()
    done = client.post(url, {"shown": preview.context["shown"]})
    assert done.status_code == 302
    assert Registration.objects.filter(tournament=tournament_of(second)).count() == 8
    assert CarriedPoints.objects.count() == 8
    # The next stage's dashboard links to its championship; its standings show the carry.
    dashboard = client.get(reverse("tournaments:dashboard", args=[tournament_of(second).slug]))
    assert f"/championnat/{championship.slug}/" in dashboard.content.decode()
    standings = client.get(reverse("public:standings", args=[tournament_of(second).slug]))
    assert "Carried" in standings.content.decode()
    public = client.get(reverse("championships:public", args=[championship.slug]))
    assert "8 qualifiers" in public.content.decode()


def test_another_organiser_does_not_see_the_close_page():
    _championship, (first, _second) = make_championship(12, cut=8)
    client = client_for(organiser())
    assert client.get(reverse("championships:stage_close", args=[first.pk])).status_code == 404
