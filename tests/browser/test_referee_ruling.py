"""The referee rules a deal's scores on a phone (390 × 844): taps "ruling", types each player's
score and the reason, sees a refusal in French when they do not sum to zero (what was typed
kept), then saves; the sheet marks the deal as the referee's ruling."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .helpers import horizontal_overflow
from .test_north_phone import choose, referee_sheet, saved_deals, table_of_four

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REASON = "Renonce d'Est au 3e pli"


def test_a_referee_rules_a_deal_on_a_phone(phone_at, shot):
    sheet = table_of_four()
    page = referee_sheet(phone_at(390, 844), sheet)
    entry = page.locator("#entry")
    ruling = entry.locator("fieldset[data-ruling]")
    expect(ruling).to_be_hidden()  # only for a ruling
    choose(entry, "kind", "ruling")
    expect(ruling).to_be_visible()
    expect(entry.locator("fieldset[data-played]")).to_be_hidden()
    scores = ruling.locator("input[type=number]")
    expect(scores).to_have_count(4)
    for field, value in zip(scores.all(), ["45", "-15", "-15", "-10"], strict=True):
        field.tap()
        field.fill(value)
    entry.locator("textarea[name=note]").fill(REASON)
    with page.expect_navigation():
        entry.locator("button.primary").tap()
    # Refused, in French, next to the form, with what was typed.
    errors = page.locator("#deal-errors")
    expect(errors).to_contain_text("doivent faire zéro au total ; ils font 5")
    expect(page.locator("#entry fieldset[data-ruling] input[name=ruling_3]")).to_have_value("-10")
    expect(page.locator("#entry textarea[name=note]")).to_have_value(REASON)
    assert saved_deals(sheet) == []
    shot(page, "refused")

    page.locator("#entry input[name=ruling_3]").fill("-15")
    with page.expect_navigation():
        page.locator("#entry button.primary").tap()
    expect(page.locator("ul.messages li.success")).to_be_visible()
    (deal,) = saved_deals(sheet)
    assert (deal.kind, deal.scores, deal.note) == ("ruling", [45, -15, -15, -15], REASON)
    row = page.locator("table.sheet tbody tr.kind-ruling").first
    expect(row).to_contain_text("Décision de l'arbitre")
    expect(row).to_contain_text(REASON)
    assert horizontal_overflow(page) <= 0
    shot(page, "ruled")
