"""North's phone at a real table (390 × 844, and 360 wide): every deal saved in a few taps.

Each test opens the table's private link (or the referee's sheet, or the calculator) in
Chromium with a phone's screen and touch, does what North does, and checks what North sees:
a passed deal goes through, nothing is chosen for North, errors show next to their field in
view with the focus on it (once), sections holding a value stay open, every control is a
thumb's size, a closed round's sheet is read-only, French reads as French, and the taps a deal
takes are counted by the page itself.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model

from scoring.engine import Camp, Contract, Deal, Handful, HandfulSize, get_rule_set, score_deal
from scoring.models import Deal as StoredDeal
from scoring.models import ScoreSheet
from scoring.services import Actor, deal_record
from tournaments import services
from tournaments.models import Round, StaffMember

from .helpers import (
    INPUT_COUNTER,
    SHEET_DEAL_ROWS,
    fr,
    fully_in_view,
    horizontal_overflow,
    input_counts,
    login,
    reset_input_counts,
    settles_fully_in_view,
    small_targets,
    widest_elements,
)

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = [("Martin", "Léa"), ("Leroy", "Élodie"), ("Dubois", "Chloé"), ("Thomas", "Jules")]
TABLE = Actor.table(page="test")
WIDTHS = [390, 360]


def table_of_four(names=NAMES, *, deals: int = 4):
    """A seated table of 4 (players in seating order North, East, South, West)."""
    return seated_table(names, deals=deals)


def seated_table(names, *, deals: int):
    """The score sheet of one seated table of these players (4 or 5, in seating order)."""
    tournament = services.tournament_create(
        created_by=None,
        name="Tournoi du club",
        date=date.today(),
        rounds=2,
        deals_per_round=deals,
        seed=1,
    )
    order = [
        services.player_register(
            tournament=tournament,
            row=services.PlayerRow(last_name=last, first_name=first),
            present=True,
        ).pk
        for last, first in names
    ]
    round_ = services.round_seat_next(tournament=tournament, order=order)
    return ScoreSheet.objects.select_related("table__round__tournament").get(table__round=round_)


def seat_names(sheet) -> list[str]:
    return [
        s.registration.full_name
        for s in sheet.table.seats.select_related("registration").order_by("position")
    ]


def engine_scores(taker, contract, oudlers, points, **kw) -> list[int]:
    deal = Deal(
        players=4, taker=taker, contract=contract, oudlers=oudlers, points=Decimal(points), **kw
    )
    return list(score_deal(deal, get_rule_set("fft")).scores)


def referee_sheet(context, sheet):
    """The referee's sheet of this table, on a phone, logged in as the tournament's referee."""
    referee = get_user_model().objects.create_user("arbitre", password="pw-arbitre-1")
    StaffMember.objects.create(
        tournament=sheet.table.round.tournament, user=referee, role="referee"
    )
    page = context.new_page()
    login(page, "arbitre", "pw-arbitre-1")
    page.goto(f"/t/{sheet.table.round.tournament.slug}/gestion/feuille/{sheet.table_id}/")
    return page


def open_table(context, sheet, count=False):
    page = context.new_page()
    if count:
        page.add_init_script(INPUT_COUNTER)
    page.goto(f"/table/{sheet.token}/")
    expect(page.locator("#entry")).to_be_visible()
    return page


def choose(entry, name: str, value) -> None:
    entry.locator(f"input[name={name}][value='{value}'] + label").tap()


def saved_deals(sheet) -> list[StoredDeal]:
    return list(StoredDeal.objects.filter(sheet=sheet).order_by("number"))


def wait_for_deals(page, count: int) -> None:
    """The page shows ``count`` deals on the sheet (after the save and the reload)."""
    expect(page.locator(SHEET_DEAL_ROWS)).to_have_count(count)


def no_sideways_scroll(page, what: str) -> None:
    overflow = horizontal_overflow(page)
    assert overflow == 0, f"{what}: {overflow}px too wide; sticking out: {widest_elements(page)}"


def error_in_view_and_focused(
    page, message: str, field_selector: str, group: str | None = None
) -> None:
    """The message is shown once, on screen, next to its field (or inside ``group``, for a
    message about several fields), and the field has the focus."""
    error = page.get_by_text(message, exact=False)
    expect(error).to_have_count(1)
    expect(error).to_be_in_viewport()
    field = page.locator(field_selector).first
    assert page.evaluate(
        "(sel) => document.activeElement && document.activeElement.matches(sel)", field_selector
    ), f"the focus is on {page.evaluate('document.activeElement.outerHTML.slice(0, 120)')}"
    error_box = error.bounding_box()
    holder = page.locator(group or field_selector).first.evaluate(
        "(el) => { const h = el.closest('[data-field], .field, fieldset, form') || el;"
        " const r = h.getBoundingClientRect(); return {top: r.top, bottom: r.bottom}; }"
    )
    assert holder["top"] - 1 <= error_box["y"] <= holder["bottom"] + 1, (
        f"the message ({error_box['y']:.0f}px) is not beside its field "
        f"({holder['top']:.0f}-{holder['bottom']:.0f}px)"
    )
    assert field.is_visible() or field.evaluate("(el) => el.type === 'radio'")


# --- the passed deal -----------------------------------------------------------------------------


@pytest.mark.parametrize("width", WIDTHS)
def test_a_passed_deal_is_saved_from_the_table_link(phone_at, width, shot):
    sheet = table_of_four()
    page = open_table(phone_at(width), sheet)
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    entry = page.locator("#entry")
    choose(entry, "kind", "passed")
    expect(entry.locator("fieldset[data-played]")).to_be_hidden()
    shot(page, f"passed-{width}")
    entry.locator("button.primary").tap()
    wait_for_deals(page, 1)
    assert [(d.number, d.kind, d.scores) for d in saved_deals(sheet)] == [
        (1, "passed", [0, 0, 0, 0])
    ]
    assert dialogs == []
    expect(page.locator(SHEET_DEAL_ROWS).first).to_contain_text("0")
    no_sideways_scroll(page, "sheet after a passed deal")


def test_a_passed_deal_is_saved_from_the_referee_sheet(phone_at):
    sheet = table_of_four()
    page = referee_sheet(phone_at(390), sheet)
    entry = page.locator("#entry")
    choose(entry, "kind", "passed")
    expect(entry.locator("fieldset[data-played]")).to_be_hidden()
    with page.expect_navigation():
        entry.locator("button.primary").tap()
    expect(page.locator("ul.messages li.success")).to_be_visible()
    assert [(d.number, d.kind) for d in saved_deals(sheet)] == [(1, "passed")]


# --- the misdeal --------------------------------------------------------------------------------


@pytest.mark.parametrize("width", WIDTHS)
def test_a_misdeal_is_dealt_again_by_the_same_dealer(phone_at, width, shot):
    # FFT: a misdeal is not a deal; the same dealer deals again and the round still has its 4
    # deals to play. North taps « Mauvaise donne », saves, and reads the same dealer.
    sheet = table_of_four()
    names = seat_names(sheet)
    deal_record(
        sheet=sheet,
        number=1,
        kind="played",
        deal=Deal(4, 1, Contract.GARDE, 2, Decimal(49)),
        actor=TABLE,
    )
    page = open_table(phone_at(width), sheet)
    entry = page.locator("#entry")
    dealer = entry.locator("[data-slot=dealer]")
    expect(dealer).to_have_text(names[1])  # East deals deal 2
    choose(entry, "kind", "misdeal")
    expect(entry.locator("fieldset[data-played]")).to_be_hidden()
    entry.locator("button.primary").tap()
    wait_for_deals(page, 2)
    assert [(d.number, d.kind, d.dealer, d.scores) for d in saved_deals(sheet)][1:] == [
        (2, "misdeal", 1, [0, 0, 0, 0])
    ]
    expect(page.locator("#entry [data-slot=dealer]")).to_have_text(names[1])  # East again
    expect(page.locator("#entry")).to_contain_text("Donne 3")
    expect(page.locator("table.sheet")).to_contain_text("Donne annulée (mauvaise donne)")
    expect(page.locator("table.sheet")).to_contain_text("non comptée")
    shot(page, f"misdeal-{width}")
    no_sideways_scroll(page, "sheet after a misdeal")


# --- the taker -----------------------------------------------------------------------------------


def test_nothing_is_chosen_until_north_taps_a_seat_named_as_on_the_sheet(phone_at, shot):
    sheet = table_of_four()
    page = open_table(phone_at(390), sheet)
    entry = page.locator("#entry")
    seats = entry.locator("fieldset[data-field=taker] label")
    expect(seats).to_have_count(4)
    # The sheet's header names the seats as "N L. Martin": the buttons say the same.
    header = [
        " ".join(t.split()) for t in page.locator("table.sheet thead th.player").all_inner_texts()
    ]
    buttons = [" ".join(t.split()) for t in seats.all_inner_texts()]
    assert buttons == header, (buttons, header)
    assert entry.locator("input[name=taker]:checked").count() == 0
    choose(entry, "contract", "garde")
    choose(entry, "oudlers", 2)
    page.keyboard.type("45")
    entry.locator("button.primary").tap()
    error_in_view_and_focused(
        page, fr("Choose the taker: tap their seat."), "#entry input[name=taker]"
    )
    shot(page, "taker-missing")
    assert saved_deals(sheet) == []
    choose(entry, "taker", 2)
    entry.locator("button.primary").tap()
    wait_for_deals(page, 1)
    (deal,) = saved_deals(sheet)
    assert (deal.taker, deal.contract, deal.oudlers, deal.points) == (2, "garde", 2, 45)
    assert deal.scores == engine_scores(2, Contract.GARDE, 2, 45)


LONG_NAMES = [
    ("Delacroix-Montmorency", "Marie-Christine"),
    ("Vandenberghe", "Jean-Baptiste"),
    ("Saint-Exupéry", "Ségolène"),
    ("Kowalczykowski", "Maximilien"),
    ("Lefebvre", "Anne"),
]
#: The line breaks inside an element's text, except after its seat letter (a block of its own):
#: for each, the text from the last character of one line to the first of the next.
LINE_BREAKS = """(el) => {
  const chars = [];
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (node.parentElement.closest('.seat-letter')) continue;
    for (let i = 0; i < node.length; i++) {
      const range = document.createRange();
      range.setStart(node, i); range.setEnd(node, i + 1);
      // the last box: after a broken soft hyphen, a character's first box is the hyphen
      const box = [...range.getClientRects()].filter((r) => r.width > 0).at(-1);
      chars.push({c: node.data[i], top: box ? box.top : null});
    }
  }
  const breaks = [];
  let last = -1;
  chars.forEach((x, i) => {
    if (x.top === null) return;
    if (last >= 0 && x.top > chars[last].top + 2) {
      breaks.push(chars.slice(last, i + 1).map((y) => y.c).join(''));
    }
    last = i;
  });
  return breaks;
}"""


@pytest.mark.parametrize("width", [360, 390, 1366])
def test_long_names_break_between_syllables_on_the_sheet_and_the_seat_buttons(
    phone_at, width, shot
):
    # A table of 5 on a small phone: five columns of about 60 px. Before, the names broke
    # anywhere ("Vande|nbergh|e", "Lefebv|re"); now only at a space, a hyphen or a syllable
    # (a soft hyphen, shown as a hyphen at the end of the line).
    sheet = seated_table(LONG_NAMES, deals=5)
    page = open_table(phone_at(width), sheet)
    shot(page, f"{width}px")
    no_sideways_scroll(page, "the table page")
    places = {  # the taker is one of the four who play the deal (the dealer sits out)
        "sheet header": (page.locator("table.sheet thead th.player"), 5),
        "taker button": (page.locator("#entry fieldset[data-field=taker] label"), 4),
    }
    broken = 0
    for what, (cells, count) in places.items():
        expect(cells).to_have_count(count)
        for cell in cells.all():
            name = " ".join(cell.inner_text().replace("\u00ad", "").split())
            breaks = cell.evaluate(LINE_BREAKS)
            broken += len(breaks)
            for at in breaks:
                assert any(c in at[:-1] for c in (" ", "-", "\u00ad")), (
                    f"{what} {name!r} breaks mid-syllable: {at!r}"
                )
                if width > 640:  # a wide screen breaks a name at a space or a hyphen only
                    assert any(c in at[:-1] for c in (" ", "-")), f"{what} {name!r}: {at!r}"
    if width < 640:
        assert broken > 0  # the names are long enough to need several lines on a phone
    # The names read whole, without their soft hyphens, wherever they are not broken.
    cells, _ = places["sheet header"]
    header = [" ".join(t.replace("\u00ad", "").split()) for t in cells.all_inner_texts()]
    assert "O M. Kowalczykowski" in header, header
    # The buttons name the seats as the header does, the fifth seat too (« 5e », not « C »):
    # North deals the first deal and sits out.
    buttons, _ = places["taker button"]
    assert [" ".join(t.replace("\u00ad", "").split()) for t in buttons.all_inner_texts()] == (
        header[1:]
    )


# --- errors where North looks --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("width", "where"), [(390, "table link"), (360, "table link"), (390, "referee's sheet")]
)
def test_an_impossible_deal_is_refused_next_to_the_points_in_view(phone_at, width, where, shot):
    """On the table link the phone's queue hears the refusal and puts the deal back in the
    form; on the referee's sheet the server's page comes back: the same message, in view."""
    sheet = table_of_four()
    if where == "table link":
        page = open_table(phone_at(width), sheet)
    else:
        page = referee_sheet(phone_at(width), sheet)
    entry = page.locator("#entry")
    choose(entry, "taker", 1)
    choose(entry, "contract", "garde")
    choose(entry, "oudlers", 3)
    page.keyboard.type("10")
    entry.locator("button.primary").tap()
    # "With 3 oudlers the attack has at least 13,5 points (each oudler is worth 4,5), not 10."
    message = "13,5"
    error_in_view_and_focused(page, message, "#entry input[name=points]")
    expect(page.get_by_text("13.5")).to_have_count(0)
    shot(page, f"impossible-{width}-{where}")
    # What North typed is still there, ready to be corrected.
    expect(entry.locator("input[name=points]")).to_have_value("10")
    expect(entry.locator("input[name=taker][value='1']")).to_be_checked()
    assert saved_deals(sheet) == []
    entry.locator("input[name=points]").fill("50")
    entry.locator("button.primary").tap()
    wait_for_deals(page, 1)
    assert [d.points for d in saved_deals(sheet)] == [50]


def complete(sheet):
    for number in range(1, 5):
        deal_record(
            sheet=sheet,
            number=number,
            kind="played",
            deal=Deal(
                players=4, taker=number % 4, contract=Contract.GARDE, oudlers=2, points=Decimal(50)
            ),
            actor=TABLE,
        )


def test_a_wrong_pin_is_said_once_next_to_the_pin_in_view(phone_at, shot):
    sheet = table_of_four()
    complete(sheet)
    page = phone_at(390).new_page()
    page.goto(f"/table/{sheet.token}/")
    sign = page.locator("#sign form")
    seat = sheet.table.seats.select_related("registration").get(position=1)
    sign.locator("select[name=registration]").select_option(str(seat.registration_id))
    sign.locator("input[name=pin]").fill("000000" if seat.registration.pin != "000000" else "1")
    with page.expect_navigation():
        sign.locator("button[type=submit]").tap()
    message = fr("Wrong PIN for %(name)s.") % {"name": seat.registration.full_name}
    error_in_view_and_focused(page, message, "#sign input[name=pin]")
    shot(page, "wrong-pin")


def test_signing_in_french_elides_before_a_vowel(phone_at):
    sheet = table_of_four()
    complete(sheet)
    page = phone_at(390).new_page()
    page.goto(f"/table/{sheet.token}/")
    sign = page.locator("#sign form")
    seat = sheet.table.seats.select_related("registration").get(position=1)
    assert seat.registration.first_name == "Élodie"
    sign.locator("select[name=registration]").select_option(str(seat.registration_id))
    sign.locator("input[name=pin]").fill(seat.registration.pin)
    with page.expect_navigation():
        sign.locator("button[type=submit]").tap()
    success = page.locator("ul.messages li.success")
    expect(success).to_have_text("Signature d'Élodie Leroy enregistrée.")
    # ...and not before a consonant.
    seat = sheet.table.seats.select_related("registration").get(position=0)
    sign = page.locator("#sign form")
    sign.locator("select[name=registration]").select_option(str(seat.registration_id))
    sign.locator("input[name=pin]").fill(seat.registration.pin)
    with page.expect_navigation():
        sign.locator("button[type=submit]").tap()
    expect(page.locator("ul.messages li.success")).to_have_text(
        "Signature de Léa Martin enregistrée."
    )


def test_paper_totals_that_do_not_sum_to_zero_are_said_in_view(phone_at, shot):
    sheet = table_of_four()
    page = referee_sheet(phone_at(390), sheet)
    tools = page.locator("#referee-tools")
    tools.locator("summary").tap()
    paper = page.locator("#paper-form")
    for position, total in enumerate([120, -40, -40, -30]):
        paper.locator(f"input[name=total_{position}]").fill(str(total))
    with page.expect_navigation():
        paper.locator("button[type=submit]").tap()
    message = fr("The round totals must sum to zero; they sum to %(sum)d. Check the sheet.") % {
        "sum": 10
    }
    expect(page.locator("#referee-tools")).to_have_attribute("open", "")
    error_in_view_and_focused(page, message, "#paper-form input[name=total_0]", "#paper-form")
    expect(page.locator("#paper-form input[name=total_0]")).to_have_value("120")
    shot(page, "paper-totals")
    sheet.refresh_from_db()
    assert sheet.paper_totals == []


# --- sections that keep what they hold -----------------------------------------------------------


def open_calculator(context, taker: int, contract: str, oudlers: int, points: int):
    """The calculator on a phone, a deal chosen with taps and its points typed."""
    page = context.new_page()
    page.goto("/calculette/")
    form = page.locator("#calculator form")
    choose(form, "taker", taker)
    choose(form, "contract", contract)
    choose(form, "oudlers", oudlers)
    page.keyboard.type(str(points))  # (the points field has the focus after the oudlers)
    return page, form


def test_the_calculator_bonuses_stay_open_with_a_value_or_an_error(phone_at, shot):
    page, form = open_calculator(phone_at(390), 0, "garde", 2, 50)
    form.locator("details.bonuses summary").tap()
    choose(form, "handful_0", "simple")
    # A live update of the calculator came and went: the section is still open, so petit au
    # bout takes one tap.
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#calculator details.bonuses")).to_have_attribute("open", "")
    choose(page.locator("#calculator form"), "petit_au_bout", "attack")
    expect(page.locator("#calculator details.bonuses")).to_have_attribute("open", "")
    expected = engine_scores(
        0,
        Contract.GARDE,
        2,
        50,
        handfuls=(Handful(seat=0, size=HandfulSize.SIMPLE),),
        petit_au_bout=Camp.ATTACK,
    )
    expect(page.locator("#result table.scores td")).to_have_text([str(s) for s in expected])
    # Two triple handfuls are more trumps than the game has: the error and its fields show.
    choose(page.locator("#calculator form"), "handful_0", "triple")
    choose(page.locator("#calculator form"), "handful_1", "triple")
    # The live update of the last tap lands first (on a busy machine it can swap the form
    # under the finger), then Compute.
    page.wait_for_load_state("networkidle")
    page.locator("#calculator form button.primary").tap()
    error = page.locator("#calculator details.bonuses .errorlist").first
    expect(error).to_be_visible()
    expect(error).to_be_in_viewport()
    expect(page.locator("#calculator details.bonuses")).to_have_attribute("open", "")
    shot(page, "calculator-handful-error")
    # A fresh calculator holds nothing: the section is folded.
    page.goto("/calculette/")
    expect(page.locator("#calculator details.bonuses")).not_to_have_attribute("open", "")


def test_the_calculator_result_is_on_screen_without_scrolling(phone_at, shot):
    page, form = open_calculator(phone_at(390), 1, "garde_sans", 1, 52)
    form.locator("button.primary").tap()
    result = page.locator("#result")
    expected = engine_scores(1, Contract.GARDE_SANS, 1, 52)
    expect(result.locator("table.scores td")).to_have_text([str(s) for s in expected])
    assert settles_fully_in_view(page, result), result.bounding_box()
    shot(page, "calculator-result")
    no_sideways_scroll(page, "calculator with its result")


# --- thumb-sized controls ------------------------------------------------------------------------


@pytest.mark.parametrize("width", WIDTHS)
def test_every_control_of_the_table_page_is_thumb_sized(phone_at, width, shot):
    sheet = table_of_four()
    deal_record(
        sheet=sheet,
        number=1,
        kind="played",
        deal=Deal(players=4, taker=1, contract=Contract.GARDE, oudlers=2, points=Decimal(45)),
        actor=TABLE,
    )
    page = open_table(phone_at(width), sheet)
    page.locator("#entry details.bonuses summary").tap()
    expect(page.locator("#entry label[for$=slam_announced]")).to_be_visible()
    shot(page, f"table-controls-{width}")
    assert small_targets(page) == []
    # The link that corrects deal 1 (10 × 18 px before) and the language buttons are among them.
    link = page.locator("table.sheet a.deal-link").first.bounding_box()
    assert link["width"] >= 44 and link["height"] >= 44, link
    for button in page.locator("header .lang button").all():
        box = button.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, box
    no_sideways_scroll(page, "table page with the bonuses open")


@pytest.mark.parametrize("width", WIDTHS)
def test_every_control_of_the_calculator_is_thumb_sized(phone_at, width, shot):
    page = phone_at(width).new_page()
    page.goto("/calculette/")
    choose(page.locator("#calculator form"), "players", 5)
    expect(page.locator("#calculator input[name=taker]")).to_have_count(5)
    page.locator("#calculator details.bonuses summary").tap()
    slam = page.locator("#calculator label[for$=slam_announced]")
    expect(slam).to_be_visible()
    box = slam.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44, box
    shot(page, f"calculator-controls-{width}")
    assert small_targets(page) == []
    no_sideways_scroll(page, "calculator with the bonuses open")


# --- a closed round ------------------------------------------------------------------------------


def test_a_closed_rounds_table_link_shows_the_sheet_read_only(phone_at, shot):
    sheet = table_of_four()
    complete(sheet)
    services.round_close(round_=sheet.table.round, reason="fin de la position")
    assert Round.objects.get(pk=sheet.table.round_id).status == Round.Status.CLOSED
    page = phone_at(390).new_page()
    page.goto(f"/table/{sheet.token}/")
    expect(page.locator("#round-closed")).to_be_visible()
    expect(page.locator("#round-closed")).to_have_text(
        fr(
            "This round is closed: the sheet can no longer be changed. Ask the referee if "
            "something is wrong."
        )
    )
    expect(page.locator(SHEET_DEAL_ROWS)).to_have_count(4)
    expect(page.locator("#entry")).to_have_count(0)
    expect(page.locator("#sign")).to_have_count(0)
    expect(page.locator("main form")).to_have_count(0)
    expect(page.locator("table.sheet a")).to_have_count(0)
    shot(page, "closed-round")


# --- entry speed ---------------------------------------------------------------------------------


def typical_deal(page, entry, taker: int, contract, oudlers: int, points: int) -> None:
    """Taker, contract, oudlers: three taps; then the digits (the focus is on the points
    already), then the save button."""
    for name, value in (("taker", taker), ("contract", contract.value), ("oudlers", oudlers)):
        target = entry.locator(f"input[name={name}][value='{value}'] + label")
        assert fully_in_view(page, target), f"{name} needs scrolling: {target.bounding_box()}"
        target.tap()
    assert page.evaluate("document.activeElement.name") == "points"
    page.keyboard.type(str(points))
    save = entry.locator("button.primary")
    assert fully_in_view(page, save), f"the save button needs scrolling: {save.bounding_box()}"
    save.tap()


SPEED = {}  # the counts measured, printed at the end of the module (pytest -s) and asserted


@pytest.mark.parametrize(
    ("case", "taker", "limit"),
    [("taker other than North", 2, 5), ("North as taker", 0, 4)],
)
def test_a_typical_deal_takes_a_few_taps_without_scrolling(phone_at, case, taker, limit):
    sheet = table_of_four()
    page = open_table(phone_at(390, 844), sheet, count=True)
    reset_input_counts(page)
    entry = page.locator("#entry")
    typical_deal(page, entry, taker, Contract.GARDE, 2, 47)
    wait_for_deals(page, 1)
    counts = input_counts(page)
    SPEED[case] = counts
    (deal,) = saved_deals(sheet)
    assert deal.scores == engine_scores(taker, Contract.GARDE, 2, 47)
    assert counts["keys"] == len("47"), counts  # the digits, nothing else
    assert counts["taps"] <= limit, f"{case}: {counts['taps']} taps (at most {limit})"
    assert counts["scrolled"] == 0, f"{case}: the page scrolled {counts['scrolled']}px"
    # The next deal (the sheet now has a row) is on the same screen, still without scrolling.
    reset_input_counts(page)
    typical_deal(page, page.locator("#entry"), (taker + 1) % 4, Contract.PETITE, 1, 52)
    wait_for_deals(page, 2)
    counts = input_counts(page)
    assert counts["taps"] <= limit and counts["scrolled"] == 0, counts
    print(f"\nentry speed, {case}: {SPEED[case]}")


def test_a_deal_with_a_handful_and_petit_au_bout_takes_seven_taps(phone_at):
    sheet = table_of_four()
    page = open_table(phone_at(390, 844), sheet, count=True)
    reset_input_counts(page)
    entry = page.locator("#entry")
    choose(entry, "taker", 3)
    choose(entry, "contract", "garde")
    choose(entry, "oudlers", 2)
    page.keyboard.type("56")
    entry.locator("details.bonuses summary").tap()
    choose(entry, "handful_3", "simple")
    choose(entry, "petit_au_bout", "attack")
    entry.locator("button.primary").tap()
    wait_for_deals(page, 1)
    counts = input_counts(page)
    (deal,) = saved_deals(sheet)
    assert deal.handfuls == [{"seat": 3, "size": "simple"}]
    assert deal.petit_au_bout == "attack"
    assert deal.scores == engine_scores(
        3,
        Contract.GARDE,
        2,
        56,
        handfuls=(Handful(seat=3, size=HandfulSize.SIMPLE),),
        petit_au_bout=Camp.ATTACK,
    )
    assert counts["keys"] == 2, counts
    assert counts["taps"] <= 7, counts
    print(f"\nentry speed, handful and petit au bout: {counts}")


def test_a_deal_refused_after_the_round_closed_offers_no_correction_that_does_nothing(phone_at):
    """A deal still on North's phone when the referee closed the round is refused by the
    server: the closed page says why and offers to drop it, not a « Corriger » button with no
    form to correct it in."""
    sheet = table_of_four()
    complete(sheet)
    services.round_close(round_=sheet.table.round, reason="fin de la position")
    page = phone_at(390).new_page()
    page.goto(f"/table/{sheet.token}/")
    expect(page.locator("#round-closed")).to_be_visible()
    page.evaluate(
        """(sheet) => localStorage.setItem('tarot-table:' + sheet, JSON.stringify({
            queue: [{key: 'k1', number: 5, dealer: '0', version: '', kind: 'played',
                     fields: [], summary: 'L. Martin · Garde · 2 bouts · 47',
                     status: 'refused', message: 'La position est close.', at: 1}],
            confirmed: []}))""",
        sheet.pk,
    )
    page.reload()
    refused = page.locator("#queue-status li.queue-refused")
    expect(refused).to_contain_text("La position est close.")
    expect(refused.locator("button[data-action=edit]")).to_have_count(0)
    refused.locator("button[data-action=discard]").tap()
    expect(page.locator("#queue-status li")).to_have_count(0)
    assert [d.number for d in saved_deals(sheet)] == [1, 2, 3, 4]


@pytest.mark.parametrize("width", WIDTHS)
def test_north_reads_back_the_whole_deal_saved_without_scrolling(phone_at, shot, width):
    """After a save the confirmation says the whole deal: taker, contract, oudlers and the
    points typed (before, at 390 px it was cut: « … · 2 bou… »), on the screen as it opens."""
    sheet = table_of_four(
        [("Martin-Delacroix", "Marie-Amélie"), *NAMES[1:3], ("Vanderhaegen", "Jean-Baptiste")]
    )
    page = open_table(phone_at(width, 844 if width == 390 else 740), sheet)
    entry = page.locator("#entry")
    for name, value in (("taker", 3), ("contract", Contract.GARDE_SANS.value), ("oudlers", 2)):
        entry.locator(f"input[name={name}][value='{value}'] + label").tap()
    entry.locator("input[name=points]").fill("47")
    entry.locator("button.primary").tap()  # (at 740 px high the page scrolls to it)
    expect(page.locator(SHEET_DEAL_ROWS)).to_have_count(1, timeout=15_000)
    saved = page.locator("#queue-status li.queue-saved")
    expect(saved).to_have_count(1)
    expect(saved).to_contain_text(fr("Deal %(n)s saved") % {"n": 1})
    expect(saved).to_contain_text("Vanderhaegen · Garde sans · 2 bouts · 47")
    # Every character is drawn: nothing clipped, the line wraps inside the screen.
    clipped = saved.evaluate("li => li.scrollWidth > li.clientWidth")
    assert not clipped, saved.evaluate("li => [li.scrollWidth, li.clientWidth]")
    assert fully_in_view(page, saved), saved.bounding_box()
    assert page.evaluate("window.scrollY") == 0
    shot(page, f"saved-{width}")
