"""Services of the prize list: the organiser sets the categories, the prizes and the rule
(one prize per player, or prizes that add up). Each change moves the tournament's version, so
that every page and export shows it at once."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.prizes import rules
from scoring.prizes.models import Category, Prize, PrizeSettings, category_label
from tarot_club.errors import ServiceError
from tournaments import limits
from tournaments.models import Tournament
from tournaments.rows import series_of
from tournaments.services.tournaments import tournament_touch

MAX_AGE = 120
MAX_PLACE = 1000


@transaction.atomic
def prize_settings_set(
    *, tournament: Tournament, cumulative: bool, scratch_position: int
) -> PrizeSettings:
    if not 0 <= scratch_position <= MAX_PLACE:
        raise ServiceError(
            _("The order is a number from 0 to %(max)d.") % {"max": MAX_PLACE},
            field="scratch_position",
        )
    settings, _created = PrizeSettings.objects.update_or_create(
        tournament=tournament,
        defaults={"cumulative": cumulative, "scratch_position": scratch_position},
    )
    tournament_touch(tournament_id=tournament.pk)
    return settings


@transaction.atomic
def category_add(
    *,
    tournament: Tournament,
    kind: str,
    age: int | None = None,
    series: str = "",
    position: int = 1,
) -> Category:
    """A category of the prize list; what it needs is checked here and said plainly."""
    if kind not in rules.KINDS:
        raise ServiceError(_("Unknown category."), field="kind")
    if kind in (rules.YOUTH, rules.SENIOR):
        if age is None:
            raise ServiceError(
                _("Give the age: Jeunes are under it, Seniors are that age or over."), field="age"
            )
        if not 1 <= age <= MAX_AGE:
            raise ServiceError(
                _("Age %(age)d: give an age from 1 to %(max)d.") % {"age": age, "max": MAX_AGE},
                field="age",
            )
        series = ""
    elif kind == rules.SERIES:
        known = series_of(tournament.series_list)
        if series not in known:
            raise ServiceError(
                _("Choose one of this tournament's séries (%(known)s).")
                % {"known": ", ".join(known) or "—"},
                field="series",
            )
        age = None
    else:
        age, series = None, ""
    if len(series) > limits.SERIES:
        raise ServiceError(_("This série's name is too long."), field="series")
    if not 0 <= position <= MAX_PLACE:
        raise ServiceError(
            _("The order is a number from 0 to %(max)d.") % {"max": MAX_PLACE}, field="position"
        )
    if Category.objects.filter(tournament=tournament, kind=kind, age=age, series=series).exists():
        raise ServiceError(
            _("The category “%(name)s” already exists.")
            % {"name": category_label(kind, age, series)},
            field="kind",
        )
    category = Category.objects.create(
        tournament=tournament, kind=kind, age=age, series=series, position=position
    )
    tournament_touch(tournament_id=tournament.pk)
    return category


@transaction.atomic
def category_remove(*, category: Category) -> None:
    """Removes the category and its prizes."""
    tournament_id = category.tournament_id
    category.delete()
    tournament_touch(tournament_id=tournament_id)


@transaction.atomic
def prizes_add(
    *,
    tournament: Tournament,
    category: Category | None,
    first_place: int,
    last_place: int | None = None,
    description: str = "",
) -> list[Prize]:
    """Prizes for the places ``first_place`` to ``last_place`` (one place when it is None) of
    a category (None: scratch), each described the same way; all or none."""
    last_place = first_place if last_place is None else last_place
    if category is not None and category.tournament_id != tournament.pk:
        raise ServiceError(_("Unknown category."), field="category")
    if not 1 <= first_place <= MAX_PLACE:
        raise ServiceError(
            _("Place %(place)d: give a place from 1 to %(max)d.")
            % {"place": first_place, "max": MAX_PLACE},
            field="first_place",
        )
    if not first_place <= last_place <= MAX_PLACE:
        raise ServiceError(
            _("Place %(place)d: give a place from %(first)d to %(max)d.")
            % {"place": last_place, "first": first_place, "max": MAX_PLACE},
            field="last_place",
        )
    description = description.strip()
    if len(description) > limits.PRIZE:
        raise ServiceError(_("This prize's description is too long."), field="description")
    places = range(first_place, last_place + 1)
    taken = sorted(
        Prize.objects.filter(
            tournament=tournament, category=category, place__in=places
        ).values_list("place", flat=True)
    )
    if taken:
        name = category.label if category is not None else _("Scratch")
        raise ServiceError(
            _("%(category)s already has a prize for place %(place)d.")
            % {"category": name, "place": taken[0]},
            field="first_place",
        )
    prizes = Prize.objects.bulk_create(
        [
            Prize(tournament=tournament, category=category, place=place, description=description)
            for place in places
        ]
    )
    tournament_touch(tournament_id=tournament.pk)
    return prizes


@transaction.atomic
def prize_remove(*, prize: Prize) -> None:
    tournament_id = prize.tournament_id
    prize.delete()
    tournament_touch(tournament_id=tournament_id)


def prizes_restore(*, tournament: Tournament, data: dict | None) -> None:
    """An archive's prize list (``scoring.archive_details.prizes_of``), as it was: inside the
    archive's import, which checked it. Nothing for an archive made before prize lists."""
    if data is None:
        return
    PrizeSettings.objects.create(
        tournament=tournament,
        cumulative=data["cumulative"],
        scratch_position=data["scratch_position"],
    )
    categories = {
        key: Category.objects.create(tournament=tournament, **fields)
        for key, fields in data["categories"].items()
    }
    Prize.objects.bulk_create(
        [
            Prize(
                tournament=tournament,
                category=categories.get(prize["category"]),
                place=prize["place"],
                description=prize["description"],
            )
            for prize in data["prizes"]
        ]
    )
