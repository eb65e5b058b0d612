"""Issue 27: after a save, North's confirmation writes the points as the sheet's table does:
« 60,5 » on a French page and "60.5" on an English one, whichever separator North typed
(390 × 844, a table of 3, where half points are counted)."""

from __future__ import annotations

import pytest

from scoring.engine import Contract

from .helpers import SHEET_DEAL_ROWS, fr
from .test_north_phone import NAMES, open_table, saved_deals, seated_table

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def save_deal(page, points: str) -> None:
    entry = page.locator("#entry")
    for name, value in (
        ("taker", 1),
        ("contract", Contract.GARDE.value),
        ("oudlers", 2),
    ):
        entry.locator(f"input[name={name}][value='{value}'] + label").tap()
    entry.locator("input[name=points]").fill(points)
    entry.locator("button.primary").tap()


@pytest.mark.parametrize(
    ("language", "typed", "shown", "on_the_table"),
    [
        ("fr", "60.5", "60,5", "60,5 pts"),
        ("fr", "60,5", "60,5", "60,5 pts"),
        ("en", "60,5", "60.5", "60.5 pts"),
    ],
)
def test_the_confirmation_writes_the_points_as_the_sheet_does(
    phone_at, live_server, shot, language, typed, shown, on_the_table
):
    sheet = seated_table(NAMES[:3], deals=4)
    context = phone_at(390, 844)
    if language == "en":  # the language the switch on every page keeps
        context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    page = open_table(context, sheet)
    expect(page.locator("html")).to_have_attribute("lang", language)
    save_deal(page, typed)
    expect(page.locator(SHEET_DEAL_ROWS)).to_have_count(1, timeout=15_000)
    saved = page.locator("#queue-status li.queue-saved")
    expect(saved).to_have_count(1)
    title = "Deal 1 saved" if language == "en" else fr("Deal %(n)s saved") % {"n": 1}
    expect(saved).to_contain_text(title)
    expect(saved).to_contain_text(f" · {shown}")
    expect(page.locator("table.sheet")).to_contain_text(on_the_table)
    assert [str(d.points) for d in saved_deals(sheet)] == ["60.5"]
    shot(page, f"saved-{language}-{typed}")
