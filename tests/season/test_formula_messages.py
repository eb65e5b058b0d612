"""Every refusal of a season formula reaches the organiser as a sentence, never a 500."""

from datetime import date

import pytest

from tarot_club.errors import ServiceError
from tests.season.test_championship import LIMITS
from tournaments import championship
from tournaments.models import Club, Season
from tournaments.services import clubs

pytestmark = pytest.mark.django_db


def test_every_refusal_code_has_its_sentence():
    codes = {code for _formula, code in LIMITS if code}
    assert codes == set(clubs.FORMULA_MESSAGES)


@pytest.mark.parametrize(("formula", "code"), [(f, c) for f, c in LIMITS if c])
def test_a_refused_formula_names_the_field_and_writes_nothing(formula, code):
    club = Club.objects.create(name="Club", slug="club")
    fields = {
        "kind": formula.kind,
        "best": formula.best,
        "place_points": ",".join(str(p) for p in formula.place_points),
        "scale_to": formula.scale_to,
        "attendance_bonus": formula.attendance_bonus,
        "tie_breaks": ",".join(formula.tie_breaks),
    }
    with pytest.raises(ServiceError) as raised:
        clubs.season_create(
            club=club, name="2026", start=date(2026, 9, 1), end=date(2027, 6, 30), **fields
        )
    message, field = clubs.FORMULA_MESSAGES[code]()
    try:
        Season.parse_place_points(fields["place_points"])
    except ValueError:  # what cannot be read as points is refused before the formula
        message = "Write whole numbers separated by commas, e.g. 100, 90, 80."
    assert (str(raised.value), raised.value.field) == (message, field)
    assert not club.seasons.exists()


def test_a_code_without_a_sentence_is_still_a_refusal(monkeypatch):
    club = Club.objects.create(name="Club", slug="club")

    def refuse(self):
        raise championship.FormulaError("a-code-no-one-wrote-a-sentence-for")

    monkeypatch.setattr(championship.Formula, "check", refuse)
    with pytest.raises(ServiceError) as raised:
        clubs.season_create(club=club, name="2026", start=date(2026, 9, 1), end=date(2027, 6, 30))
    assert str(raised.value) == "This formula cannot rank the season: check its numbers."
    assert not club.seasons.exists()
