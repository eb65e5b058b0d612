"""In-process measurements (Django set up by the caller): standings, pages, deal entry."""

from __future__ import annotations

import random
import time

from django.core.cache import cache
from django.db import connection
from django.db.models import Sum
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from bench.timing import figure, sample, sample_pair
from scoring.engine import get_rule_set
from scoring.engine.sampling import random_legal_deal
from scoring.models import Score, ScoreSheet
from scoring.selectors import round_tables
from scoring.standings import COUNTED, forget_standings, standings_data
from tournaments import services
from tournaments.models import Registration, Round, Tournament

ENTRY_NAME = "Bench saisie des donnes (1000 joueurs)"


def _sum_query(tournament: Tournament):
    """The one aggregate query that sums every player's points (SQL and parameters)."""
    qs = (
        Score.objects.filter(sheet__table__round__tournament=tournament, sheet__status__in=COUNTED)
        .values("registration_id")
        .annotate(total=Sum("points"))
    )
    return qs.query.sql_with_params()


def _seat_sum_query(tournament: Tournament):
    """The same sums from the seats' stored results (one row per player and round)."""
    from tournaments.models import Seat

    qs = (
        Seat.objects.filter(round__tournament=tournament, table__sheet__status__in=COUNTED)
        .order_by()
        .values("registration_id")
        .annotate(total=Sum("points"))
    )
    return qs.query.sql_with_params()


def _run_sql(sql, params) -> int:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return len(cursor.fetchall())


def standings_compute(tournament: Tournament):
    data = standings_data(tournament)
    return data.standings()


def count_queries(fn) -> int:
    with CaptureQueriesContext(connection) as ctx:
        fn()
    return len(ctx.captured_queries)


def standings_figures(national: Tournament, club: Tournament, teams: Tournament, runs: int) -> dict:
    out: dict = {}
    sql, params = _sum_query(national)
    rows = _run_sql(sql, params)
    db, compute = sample_pair(
        lambda: _run_sql(sql, params), lambda: standings_compute(national), runs=runs
    )
    players = len(standings_compute(national))
    ratio = round(compute["median_ms"] / db["median_ms"], 2) if db["median_ms"] else None
    out["standings_compute_vs_sum_query_ratio"] = figure(
        ratio,
        3,
        "x",
        compute_ms=compute,
        sum_query_db_ms=db,
        players_ranked=players,
        sum_query_rows=rows,
        note="standings_data()+standings() median / median of the bare SUM(points) GROUP BY "
        "player query executed through a cursor (same run, the two measured alternately)",
    )
    seat_sql, seat_params = _seat_sum_query(national)
    assert _run_sql(seat_sql, seat_params) == rows
    seat_db, seat_compute = sample_pair(
        lambda: _run_sql(seat_sql, seat_params), lambda: standings_compute(national), runs=runs
    )
    out["standings_compute_vs_seat_sum_query_ratio"] = {
        "value": round(seat_compute["median_ms"] / seat_db["median_ms"], 2)
        if seat_db["median_ms"]
        else None,
        "seat_sum_query_db_ms": seat_db,
        "note": "for information: the same ratio against the cheaper sum over the seats' "
        "stored results (8 rows per player instead of 40 score rows)",
    }
    # Fixed number of queries: the same for 32 and 1000 players.
    q_national = count_queries(lambda: standings_compute(national))
    q_club = count_queries(lambda: standings_compute(club))
    url_n = reverse("public:standings", args=[national.slug])
    url_c = reverse("public:standings", args=[club.slug])
    client = Client()

    def cold_start():
        """Nothing kept: no cached page and no standings kept by the process."""
        cache.clear()
        forget_standings()

    def cold_get(url):
        cold_start()
        return client.get(url)

    page_q_n = count_queries(lambda: cold_get(url_n))
    page_q_c = count_queries(lambda: cold_get(url_c))
    out["standings_query_count_fixed"] = {
        "value": {"1000_players": q_national, "32_players": q_club},
        "page_cold": {"1000_players": page_q_n, "32_players": page_q_c},
        "target": "same number of queries for 32 and 1000 players",
        "pass": q_national == q_club and page_q_n == page_q_c,
    }
    response = cold_get(url_n)
    assert response.status_code == 200, response.status_code
    page_bytes = len(response.content)
    cold = sample(lambda: client.get(url_n), runs=runs, warmup=2, before=cold_start)
    out["standings_page_cold_ms"] = figure(
        cold["median_ms"], 250, "ms", stats=cold, html_bytes=page_bytes
    )
    client.get(url_n)
    warm = sample(lambda: client.get(url_n), runs=100 if runs >= 30 else runs * 4, warmup=5)
    out["standings_page_cached_ms"] = figure(warm["median_ms"], 10, "ms", stats=warm)
    etag = client.get(url_n)["ETag"]
    not_modified = sample(
        lambda: client.get(url_n, HTTP_IF_NONE_MATCH=etag),
        runs=100 if runs >= 30 else runs * 4,
        warmup=5,
    )
    out["standings_page_304_ms"] = {"value": not_modified["median_ms"], "stats": not_modified}
    club_cold = sample(lambda: client.get(url_c), runs=runs, warmup=2, before=cold_start)
    club_compute = sample(lambda: standings_compute(club), runs=runs, warmup=2)
    out["club_32_players_for_comparison"] = {
        "standings_compute_ms": club_compute,
        "standings_page_cold_ms": club_cold,
    }

    # Team standings (teams of 4, 1000 players = 250 teams, 8 rounds).
    def team_compute():
        return standings_data(teams).team_standings()

    team_count = len(team_compute())
    team = sample(team_compute, runs=runs, warmup=3)
    out["team_standings_ms"] = figure(
        team["median_ms"],
        50,
        "ms",
        stats=team,
        teams=team_count,
        queries=count_queries(team_compute),
        note="standings_data(tournament).team_standings() on the 250-team tournament",
    )
    url_t = reverse("public:standings", args=[teams.slug])
    team_page = sample(
        lambda: client.get(url_t), runs=5 if runs >= 5 else runs, warmup=1, before=cold_start
    )
    out["team_event_standings_page_cold_ms"] = {
        "value": team_page["median_ms"],
        "stats": team_page,
        "note": "whole page: 250 teams + 1000 players (no separate target)",
    }

    # A player's own page ("me"): public.player, cold (cache cleared before each request).
    registrations = Registration.objects.filter(tournament=national).order_by("pk")
    registration = registrations[registrations.count() // 2]
    url_p = reverse("public:player", args=[national.slug, registration.pk])
    assert cold_get(url_p).status_code == 200
    me = sample(lambda: client.get(url_p), runs=runs, warmup=2, before=cold_start)
    out["player_me_page_cold_ms"] = figure(
        me["median_ms"],
        50,
        "ms",
        stats=me,
        queries=count_queries(lambda: cold_get(url_p)),
        note="public player page (8 rounds, 40 deals explained, rank, chart), nothing kept: "
        "page cache cleared and the standings computed again",
    )
    client.get(url_p)  # the standings of this version are now kept by the process
    me_kept = sample(lambda: client.get(url_p), runs=runs, warmup=2, before=cache.clear)
    out["player_me_page_standings_kept_ms"] = {
        "value": me_kept["median_ms"],
        "stats": me_kept,
        "queries": count_queries(lambda: (cache.clear(), client.get(url_p))),
        "note": "the same page, not cached, when the process already holds this version's "
        "standings (every 'me' page after the first one since the last change)",
    }
    me_warm = sample(lambda: client.get(url_p), runs=runs, warmup=3)
    out["player_me_page_cached_ms"] = {"value": me_warm["median_ms"], "stats": me_warm}
    return out


# ---------------------------------------------------------------------------------------------
# Deal entry
# ---------------------------------------------------------------------------------------------


def entry_tournament(
    spec_players: int, seed: int = 14, deals_per_round: int = 10
) -> tuple[Tournament, dict]:
    """The tournament whose fresh rounds take the entry benchmarks (built once, then reused)."""
    from bench.workload import Spec, register

    t = Tournament.objects.filter(name=ENTRY_NAME).first()
    if t is not None and t.registrations.count() == spec_players:
        return t, {"reused": True}
    if t is not None:
        services.tournament_delete(tournament=t)
    began = time.perf_counter()
    spec = Spec("entry", ENTRY_NAME, spec_players, 1, deals_per_round, 0, seed, "fast")
    t = register(spec, random.Random(seed), name=ENTRY_NAME, rounds=1, deals=deals_per_round)
    return t, {"reused": False, "register_seconds": round(time.perf_counter() - began, 2)}


def fresh_round(tournament: Tournament) -> tuple[Round, float]:
    """Close the open round (with a reason), allow one more round and seat it."""
    tournament.refresh_from_db()
    last = Round.objects.filter(tournament=tournament).order_by("-number").first()
    if last is not None and last.status != Round.Status.CLOSED:
        services.round_close(round_=last, reason="bench")
    seated = Round.objects.filter(tournament=tournament).count()
    if tournament.rounds <= seated:
        tournament = services.tournament_update(tournament=tournament, rounds=seated + 1)
    began = time.perf_counter()
    round_ = services.round_seat_next(tournament=tournament, seed=1000 + seated)
    return round_, time.perf_counter() - began


def deal_post_data(rng: random.Random, rules, number: int, players: int = 4) -> dict:
    """The form a table's phone posts for one random legal deal."""
    deal = random_legal_deal(rng, players, rules)
    data = {
        "action": "deal",
        "number": str(number),
        "kind": "played",
        "taker": str(deal.taker),
        "contract": str(deal.contract),
        "oudlers": str(deal.oudlers),
        "points": f"{deal.points:f}".replace(".", ","),
        "points_camp": "attack",
        "petit_au_bout": str(deal.petit_au_bout) if deal.petit_au_bout else "",
        "slam": "",
        "version": "",
    }
    for h in deal.handfuls:
        data[f"handful_{h.seat}"] = str(h.size)
    return data


def entry_figures(entry: Tournament, runs: int) -> dict:
    """POST deals through /table/<token>/ with the test client: median and p95."""
    round_, seat_seconds = fresh_round(entry)
    rules = get_rule_set(entry.rule_set)
    rng = random.Random(5)
    tables = [t for t in round_tables(round_) if len(t.seats.all()) == 4]
    per_sheet = 5
    needed = runs + 10
    jobs = []
    for i in range(needed):
        table = tables[i // per_sheet]
        jobs.append((table.sheet.token, i % per_sheet + 1))
    client = Client()
    statuses = []

    def post(job):
        token, number = job
        response = client.post(
            reverse("table_sheet", args=[token]), deal_post_data(rng, rules, number)
        )
        statuses.append(response.status_code)

    it = iter(jobs)
    for _ in range(5):
        post(next(it))
    queries = count_queries(lambda: post(next(it)))
    for _ in range(4):
        post(next(it))
    stats = sample(lambda: post(next(it)), runs=runs, warmup=0)
    bad = [s for s in statuses if s != 302]
    get_stats = sample(
        lambda: client.get(reverse("table_sheet", args=[tables[-1].sheet.token])),
        runs=runs,
        warmup=2,
    )
    return {
        "deal_entry_post_median_ms": figure(
            stats["median_ms"], 30, "ms", stats=stats, queries_per_post=queries, non_302=len(bad)
        ),
        "deal_entry_post_p95_ms": figure(stats["p95_ms"], 60, "ms"),
        "table_sheet_get_ms": {"value": get_stats["median_ms"], "stats": get_stats},
        "entry_round_seat_seconds": round(seat_seconds, 2),
    }


def wrk_entry_plan(entry: Tournament, deals_per_sheet: int) -> tuple[list[tuple[str, str]], float]:
    """A fresh round and, for every sheet, its deals 1..quota as (path, urlencoded body),
    in deal-number-major order (every table's deal 1, then every table's deal 2, ...)."""
    from urllib.parse import urlencode

    round_, seat_seconds = fresh_round(entry)
    rules = get_rule_set(entry.rule_set)
    rng = random.Random(6)
    tables = round_tables(round_)
    items = []
    for number in range(1, deals_per_sheet + 1):
        for table in tables:
            size = len(table.seats.all())
            if size != 4:
                continue
            path = reverse("table_sheet", args=[table.sheet.token])
            items.append((path, urlencode(deal_post_data(rng, rules, number))))
    return items, seat_seconds


def entry_check(entry: Tournament) -> dict:
    """After the load test: deals stored in the last round, and sheets by status."""
    round_ = Round.objects.filter(tournament=entry).order_by("-number").first()
    sheets = ScoreSheet.objects.filter(table__round=round_)
    statuses: dict = {}
    for s in sheets.values_list("status", flat=True):
        statuses[s] = statuses.get(s, 0) + 1
    from scoring.models import Deal

    return {
        "deals_stored": Deal.objects.filter(sheet__table__round=round_).count(),
        "sheet_status": statuses,
    }
