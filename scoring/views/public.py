"""Public pages (no login): standings, seating, results, a player's own page, a TV view.

They show only what the organiser allows and never an edit control. Each is rendered once per
page version and answers conditional requests (``scoring/public_answers.py``), so a thousand
phones polling an unchanged page cost almost nothing.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from scoring import field_pages
from scoring.engine import get_rule_set, score_deal
from scoring.engine.table import active_positions
from scoring.models import Deal
from scoring.page_versions import player_version, shared_version
from scoring.presenters import explanation_lines
from scoring.prizes.exports import export_sections, tv_categories
from scoring.public_answers import public_page
from scoring.scores import to_engine
from scoring.selectors import round_tables
from scoring.stage_standings import mark_rows, stage_marks, stage_section
from scoring.standings import current_round, current_standings, sheet_counts, sheet_unsigned
from scoring.tables import StandingsTable, standings_rows, team_section
from scoring.tv_rows import tv_rows_html
from scoring.views.exports import standings_response
from scoring.views.halls import hall_view
from tournaments.folding import fold
from tournaments.halls.pages import hall_choice
from tournaments.halls.selectors import hall_slug
from tournaments.models import Player, Registration, Round, Seat, Tournament
from tournaments.selectors import registrations_matching
from tournaments.views.helpers import int_or_none

MAX_SEARCH = 100  # characters of a search kept


def search_text(request) -> str:
    """The "me" search as typed, without control characters (a NUL...), at most 100 characters."""
    text = request.GET.get("q", "")
    return "".join(ch for ch in text if ch.isprintable()).strip()[:MAX_SEARCH]


def _round_number(value: str, tournament: Tournament) -> str:
    """A round number as the standings read it (``apres``): one of the tournament's, or ""."""
    number = int_or_none(value)
    return str(number) if number is not None and 0 < number <= tournament.rounds else ""


def _context(tournament, **extra):
    return {"tournament": tournament, "public": True, **extra}


@public_page
def home(request, tournament):
    data = current_standings(tournament)
    current = current_round(tournament)
    context = _context(
        tournament,
        current_round=current,
        tables=round_tables(current) if current else [],
        data=data,
    )
    if tournament.standings_public:
        context["top"] = standings_rows(data.standings()[:10], [])
        if tournament.is_team_event:
            context["teams"] = data.team_standings()[:5]
    return render(request, "public/home.html", context)


def player_link(tournament) -> str:
    """A player's page address in ``tournament`` without its registration id and "/": the
    standings add each row's (one ``reverse`` for the whole field)."""
    return reverse("public:player", args=[tournament.slug, 1]).removesuffix("1/")


def _standings_rows(tournament, request):
    data = current_standings(tournament)
    through = int_or_none(_round_number(request.GET.get("apres", ""), tournament))
    if through is not None and through not in data.rounds:
        through = None
    rounds = [n for n in data.rounds if through is None or n <= through]
    # Made once per standings version (each reader's place is a page of its own) and shared by
    # every page; a championship's stage marks its own rows (the cut line, carried points) on a
    # copy.
    kept = data.remember(
        ("rows", through, get_language()),
        lambda: standings_rows(data.standings(through), rounds, through=through),
    )
    marks = stage_marks(tournament)
    rows = [dict(row) for row in kept] if marks else kept
    return data, through, rounds, rows, marks, mark_rows(rows, marks)


def _standings_context(tournament, request):
    data, through, rounds, rows, marks, columns = _standings_rows(tournament, request)
    return data, through, StandingsTable(rows, rounds=rounds, more_columns=columns), marks


def _number(read):
    return lambda text, _tournament: str(read(text) or "")


@public_page(
    uses={
        "apres": _round_number,
        "page": _number(field_pages.page_number),
        "joueur": _number(field_pages.registration_id),
        "tout": lambda text, _: "1" if text == "1" else "",
        "q": lambda text, _: fold(text)[:MAX_SEARCH],
    },
    stored=lambda r: not search_text(r),
    versioned=shared_version,
    reader=lambda r: field_pages.registration_id(r.GET.get("joueur", "")),
)
def standings(request, tournament):
    """The whole field, or for a large one its top, the reader's place and a search, with
    every row one tap away (``scoring/field_pages.py``)."""
    if not tournament.standings_public:
        return render(request, "public/hidden.html", _context(tournament))
    data, through, rounds, rows, marks, columns = _standings_rows(tournament, request)
    query = search_text(request)
    field = field_pages.field_view(
        rows,
        page=field_pages.page_number(request.GET.get("page", "")),
        everything=request.GET.get("tout") == "1",
        reader=field_pages.registration_id(request.GET.get("joueur", "")),
        query=query if len(fold(query)) >= 2 else "",
    )
    link = player_link(tournament)
    parts = [
        (part, StandingsTable(part.rows, rounds=rounds, more_columns=columns, player_link=link))
        for part in field.parts
    ]
    context = _context(
        tournament,
        data=data,
        field=field,
        parts=parts,
        table=parts[0][1],  # the whole field's table, below LARGE_FIELD
        through=through,
        rounds=data.rounds,
        tie_breaks=tournament.tie_break_list,
        stage=marks,
    )
    if tournament.is_team_event:
        context["teams"] = data.team_standings(through)
    return render(request, "public/standings.html", context)


@public_page(uses={"apres": _round_number})
def standings_export(request, tournament, fmt: str):
    if not tournament.standings_public:
        raise Http404
    data, through, table, marks = _standings_context(tournament, request)
    headers, *values = table.values()
    more = [stage_section(marks)] if marks else []
    if tournament.is_team_event:
        more.append(team_section(data.team_standings(through), through=through))
    if through is None:  # the categories and the prize list read the whole tournament
        more += export_sections(tournament, data)
    if tournament.is_team_event:
        title = _("Individual standings")
    else:
        title = _("Final standings") if tournament.finished else _("Provisional standings")
    return standings_response(
        fmt,
        name=f"classement-{tournament.slug}",
        sheet_title=str(title),
        pdf_title=tournament.name,
        pdf_subtitle=lambda: (
            _standings_state(tournament, data)
            + (f" — {marks['cut']} {marks['carry']}" if marks else "")
        ),
        headers=headers,
        rows=values,
        more=more,
    )


def _standings_state(tournament, data) -> str:
    """« Final standings » once the organiser finished the tournament (tournaments.services.ending),
    « Provisional standings » before, with the tables still pending if any."""
    if tournament.finished:
        return str(_("Final standings"))
    pending = _provisional_text(data)
    return (
        f"{_('Provisional standings')} — {pending}" if pending else str(_("Provisional standings"))
    )


def _provisional_text(data) -> str:
    pending = [p for p in data.pending if p.missing or p.unsigned]
    if not pending:
        return ""
    tables = sum(len(p.missing) + len(p.unsigned) for p in pending)
    return ngettext(
        "Provisional after round %(round)d: %(tables)d table pending",
        "Provisional after round %(round)d: %(tables)d tables pending",
        tables,
    ) % {
        "round": data.rounds[-1],
        "tables": tables,
    }


def _time_up_before_first_deal(round_, table, seats) -> bool:
    """Time was called before the table's first deal: « Temps écoulé : aucune donne jouée »
    (its players score 0 for the round)."""
    return (
        round_.time_called_at is not None
        and not table.sheet.paper_mode
        and not any(seat.deals_played for seat in seats)
    )


@public_page
def round_results(request, tournament, number: int):
    round_ = tournament.round_set.filter(number=number).first()
    if round_ is None:
        raise Http404
    tables = round_tables(round_)
    show_scores = tournament.standings_public
    closed = round_.status == Round.Status.CLOSED
    rows = [
        {
            "table": table,
            "status": table.sheet.status,
            "unsigned": sheet_unsigned(table.sheet.status, closed),
            "no_deal": _time_up_before_first_deal(round_, table, table.seats.all()),
            "players": [
                (
                    seat,
                    seat.points
                    if show_scores and sheet_counts(table.sheet.status, closed)
                    else None,
                )
                for seat in table.seats.all()
            ],
        }
        for table in tables
    ]
    return render(
        request,
        "public/round.html",
        _context(tournament, round=round_, rows=rows, show_scores=show_scores),
    )


@public_page(
    uses={"q": lambda text, _: fold(text)[:MAX_SEARCH]}, stored=lambda r: not search_text(r)
)
def find_me(request, tournament):
    query = search_text(request)
    matches = registrations_matching(tournament, query)
    return render(
        request,
        "public/find_me.html",
        _context(tournament, query=query, matches=matches),
    )


@public_page(versioned=player_version, per_player=True)
def player(request, tournament, registration_id: int):
    registration = get_object_or_404(
        Registration.objects.select_related("team"),
        pk=registration_id,
        tournament=tournament,
    )
    seats = list(
        Seat.objects.filter(registration=registration)
        .select_related("table__round", "table__sheet")
        .order_by("-round__number")
    )
    sheet_ids = [s.table.sheet.pk for s in seats]
    table_names: dict[int, list[str]] = {}  # table id -> players' names, by position
    for table_id, first_name, last_name in (
        Seat.objects.filter(table_id__in=[s.table_id for s in seats])
        .order_by("position")
        .values_list("table_id", "registration__first_name", "registration__last_name")
    ):
        table_names.setdefault(table_id, []).append(Player.name_of(first_name, last_name))
    deals_by_sheet: dict[int, list[Deal]] = {}
    for deal in Deal.objects.filter(sheet_id__in=sheet_ids).order_by("number"):
        deals_by_sheet.setdefault(deal.sheet_id, []).append(deal)
    rules = get_rule_set(tournament.rule_set)
    rounds = []
    for seat in seats:
        names = table_names[seat.table_id]
        size = len(names)
        lines = []
        lines_of = deals_by_sheet.get(seat.table.sheet.pk, [])
        for deal in lines_of:
            item = {"deal": deal, "score": deal.scores[seat.position], "sat_out": False}
            if deal.kind == Deal.Kind.MISDEAL:
                item["misdeal"] = True  # its own kind: not a deal everybody passed
            elif deal.kind == Deal.Kind.PASSED:
                item["passed"] = True
            elif size == 5 and deal.dealer == seat.position:
                item["sat_out"] = True
            elif deal.kind == Deal.Kind.RULING:
                item["ruling"] = True
            else:
                active = active_positions(size, deal.dealer)
                result = score_deal(to_engine(deal, size), rules)
                item["taker"] = names[deal.taker]
                item["explanation"] = explanation_lines(
                    result.explanation, [names[p] for p in active]
                )
            lines.append(item)
        rounds.append(
            {
                "round": seat.table.round,
                "table": seat.table,
                "seat": seat,
                "names": names,
                "deals": lines,
                "total": seat.points,  # the seat's stored result: deals or paper total
                "played": seat.deals_played,  # deals this player played (not sat out, passed)
                "status": seat.table.sheet.status,
                "unsigned": sheet_unsigned(
                    seat.table.sheet.status, seat.table.round.status == Round.Status.CLOSED
                ),
                "no_deal": seat.table.round.time_called_at is not None
                and not seat.table.sheet.paper_mode
                and not any(d.kind not in (Deal.Kind.PASSED, Deal.Kind.MISDEAL) for d in lines_of),
            }
        )
    chart = None
    rank = None
    penalties = 0
    show_scores = tournament.standings_public
    if not show_scores:
        # Results hidden until the end: no total, no score, no standings computed.
        for item in rounds:
            item["total"] = None
            for line in item["deals"]:
                line["score"] = None
                line.pop("explanation", None)
    else:
        data = current_standings(tournament)
        rank = data.standing_of(registration.pk)
        penalties = rank.entry.penalty_total if rank else 0
        progression = data.progression_of(registration.pk)
        chart = _chart(progression) if progression else None
    return render(
        request,
        "public/player.html",
        _context(
            tournament,
            registration=registration,
            rounds=rounds,
            current=rounds[0] if rounds else None,
            standing=rank,
            chart=chart,
            show_scores=show_scores,
            penalties=penalties,
        ),
    )


def line_chart(values: list[int], extras: list[tuple]) -> dict:
    """A small server-rendered SVG line chart (320 × 160) of ``values``: each point is
    ``(x, y, *extra)`` with the matching ``extras`` tuple, beside the zero line, the polyline
    and how often to label the points."""
    width, height, pad = 320, 160, 28
    low, high = min(0, *values), max(0, *values)
    span = (high - low) or 1
    count = len(values)

    def x(i):
        return pad + (width - 2 * pad) * (i / max(1, count - 1))

    def y(v):
        return pad + (height - 2 * pad) * (1 - (v - low) / span)

    points = [
        (round(x(i), 1), round(y(v), 1), *extra)
        for i, (v, extra) in enumerate(zip(values, extras, strict=True))
    ]
    return {
        "width": width,
        "height": height,
        "zero": round(y(0), 1),
        "polyline": " ".join(f"{px},{py}" for px, py, *_ in points),
        "points": points,
        "pad": pad,
        "right": width - pad,
        "label_every": max(1, count // 8),
    }


def _chart(progression: list[tuple[int, int, int]]) -> dict:
    """Cumulative score and rank after each round: points ``(x, y, round, total, rank)``."""
    return line_chart([t for _, t, _ in progression], list(progression))


@public_page(uses={"salle": hall_slug}, versioned=shared_version)
def tv(request, tournament):
    if not tournament.standings_public:
        return render(request, "public/hidden.html", _context(tournament))
    data = current_standings(tournament)
    rows = standings_rows(data.standings(), [])
    marks = stage_marks(tournament)  # a championship's stage: the cut line
    mark_rows(rows, marks)
    last = data.pending[-1] if data.pending else None
    teams = data.team_standings() if tournament.is_team_event else None
    halls = hall_choice(request, tournament)  # ?salle=<slug>: the players and tables of one hall
    if halls.hall:
        rows, last, teams = hall_view(tournament, halls.hall, rows, last, teams)
    return render(
        request,
        "public/tv.html",
        _context(
            tournament,
            rows=rows,
            rows_html=tv_rows_html(rows),
            stage=marks,
            teams=teams,
            categories=tv_categories(tournament, data),
            provisional=_provisional_text(data),
            # The tables of the last round whose sheet is not entered yet: still playing.
            playing={"round": last.round_number, "tables": last.missing}
            if last and last.missing
            else None,
            hall=halls.hall,
        ),
    )
