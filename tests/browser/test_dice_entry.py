"""The dice entered on a table phone pass the dice as the taps do (docs/rules.md sections
2.2 and 2.3): a miss moves "Who's rolling?" to the next seat, a roll that scores keeps it."""

import pytest
from playwright.sync_api import expect

from bunco_night.play.models import Entry
from tests.browser.helpers import phone
from tests.factories import make_group, make_night
from tests.play.helpers import start_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def enter_dice(page, faces):
    details = page.locator("details.dice-entry")
    if details.get_attribute("open") is None:  # it stays open after a roll
        details.locator("summary").click()
    for die, face in enumerate(faces, start=1):
        page.locator(f".die-row[aria-label='Die {die}'] label:has(input[value='{face}'])").click()
    page.get_by_role("button", name="Score these dice").click()


def rolling(page) -> str:
    return page.locator("#taps input[name=seat]:checked").get_attribute("value")


def test_dice_that_miss_pass_to_the_next_seat_and_dice_that_score_do_not(contexts, live_server):
    night = make_night(make_group(regulars=8, substitutes=0), sets=1)
    start_night(night)
    rnd = night.rounds.get(number=1)
    table = night.tables.get(number=2)
    page = phone(contexts, f"{live_server.url}/t/{table.token}/", width=360, height=740)
    mark = rnd.mark
    other = [f for f in range(1, 7) if f != mark]
    assert rolling(page) == "1"
    enter_dice(page, [mark, other[0], other[1]])  # one of the mark: +1, roll again
    expect(page.locator("#recent")).to_contain_text("+1")
    assert rolling(page) == "1"
    enter_dice(page, [other[0], other[0], other[0]])  # three of a kind: a mini bunco
    expect(page.locator("#recent")).to_contain_text("ini")
    assert rolling(page) == "1"
    enter_dice(page, [other[0], other[1], other[2]])  # no mark: the dice pass
    expect(page.locator("#taps input[name=seat][value='2']")).to_be_checked()
    page.locator("#taps button[value='points:1']").click()  # seat 2's roll, not seat 1's
    expect(page.locator("#recent li")).to_have_count(4)
    last = Entry.objects.filter(table=table).order_by("pk").last()
    assert last.seat == 2 and last.points == 1


def test_a_phone_opened_mid_round_starts_on_who_rolls_next(contexts, live_server):
    """A second phone at the table, or one whose browser was closed, starts "Who's rolling?"
    where the table is, not on the first roller."""
    night = make_night(make_group(regulars=8, substitutes=0), sets=1)
    start_night(night)
    table = night.tables.get(number=2)
    first = phone(contexts, f"{live_server.url}/t/{table.token}/", width=360, height=740)
    starts = first.locator("#taps legend .first-roller")
    expect(starts).to_contain_text("starts")
    first.locator("#taps button[value='miss']").click()  # seat 1 misses: seat 2 rolls
    expect(first.locator("#recent li")).to_have_count(1)
    expect(starts).to_be_hidden()  # who started is no longer news (its room kept)
    second = phone(contexts, f"{live_server.url}/t/{table.token}/", width=360, height=740)
    expect(second.locator("#taps input[name=seat][value='2']")).to_be_checked()


def test_a_message_goes_when_the_next_tap_is_made_and_never_piles_up(contexts, live_server):
    night = make_night(make_group(regulars=8, substitutes=0), sets=1)
    start_night(night)
    table = night.tables.get(number=2)
    page = phone(contexts, f"{live_server.url}/t/{table.token}/", width=360, height=740)
    page.locator("details.dice-entry summary").click()
    for _ in range(2):  # no faces picked: the same message, shown once
        page.get_by_role("button", name="Score these dice").click()
    toast = page.locator(".toast")
    expect(toast).to_have_count(1)
    expect(toast).to_contain_text("Tap a face for each of the three dice.")
    page.locator("#taps button[value='points:1']").click()  # the next tap clears it
    expect(toast).to_have_count(0)
    expect(page.locator("#recent li")).to_have_count(1)
    page.get_by_role("button", name="Score these dice").click()
    expect(toast).to_have_count(1)
    toast.click()  # a tap on the message clears it
    expect(toast).to_have_count(0)


def test_dice_scored_below_the_entries_are_said_where_the_player_is(contexts, live_server):
    """The dice entry lies below the entries: with the page scrolled down to it, the score
    and the new entry are above the screen, so what the dice entered is said beside it."""
    night = make_night(make_group(regulars=8, substitutes=0), sets=1)
    start_night(night)
    rnd = night.rounds.get(number=1)
    table = night.tables.get(number=2)
    page = phone(contexts, f"{live_server.url}/t/{table.token}/", width=360, height=740)
    for _ in range(3):  # three entries above the dice entry
        page.locator("#taps button[value='points:1']").click()
    expect(page.locator("#recent li")).to_have_count(3)
    page.locator("details.dice-entry summary").click()
    page.get_by_role("button", name="Score these dice").scroll_into_view_if_needed()
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    other = [f for f in range(1, 7) if f != rnd.mark]
    enter_dice(page, [rnd.mark, rnd.mark, other[0]])  # two of the mark: +2
    expect(page.locator("#recent li")).to_have_count(4)
    said = page.locator(".dice-entry [role=status]")
    name = page.locator("#taps input[name=seat][value='1'] + span").inner_text()
    expect(said).to_have_text(f"Entered: +2 for {' '.join(name.split())}.")
    expect(said).to_be_in_viewport()
    expect(page.locator("[data-testid=score-0]")).not_to_be_in_viewport()


def test_what_the_dice_entered_is_no_longer_said_after_another_tap_or_its_undo(
    contexts, live_server
):
    """ "Entered: +2 for Ann." names the latest entry: a tap after it, or Undo of it, and
    the line says nothing rather than something no longer true."""
    night = make_night(make_group(regulars=8, substitutes=0), sets=1)
    start_night(night)
    rnd = night.rounds.get(number=1)
    table = night.tables.get(number=2)
    page = phone(contexts, f"{live_server.url}/t/{table.token}/", width=360, height=640)
    page.locator("details.dice-entry summary").click()
    other = [f for f in range(1, 7) if f != rnd.mark]
    said = page.locator(".dice-entry [role=status]")
    enter_dice(page, [rnd.mark, rnd.mark, other[0]])
    expect(said).to_contain_text("Entered: +2 for")
    page.locator("#taps button[value='points:1']").click()
    expect(page.locator("#recent li")).to_have_count(2)
    expect(said).to_have_text("")
    enter_dice(page, [rnd.mark, rnd.mark, other[0]])
    expect(said).to_contain_text("Entered: +2 for")
    expect(page.locator("#recent li")).to_have_count(3)
    undo = page.locator("#recent li").first.get_by_role("button", name="Undo")
    undo.focus()  # by the keyboard: a finger's tap on a row just drawn is held back
    undo.press("Enter")
    expect(page.locator("#recent li")).to_have_count(2)  # +1 and the first dice' +2
    expect(said).to_have_text("")
