"""Where to sit next, on the table phone: a phone that showed the round's end is not told it
missed it, and one that was away is told, its title on the screen (docs/rules.md
section 5)."""

import pytest
from playwright.sync_api import expect

from bunco_night.play.services import round_start
from tests.browser.helpers import phone, until
from tests.factories import make_group, make_night
from tests.play.helpers import play_round, start_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [(360, 640), (360, 740)]

TITLE_ON_SCREEN = """() => {
  const box = document.getElementById("missed-moves").getBoundingClientRect();
  const title = document.getElementById("missed-title").getBoundingClientRect();
  return title.top >= Math.max(box.top, 0) && title.bottom <= Math.min(box.bottom, innerHeight);
}"""


@pytest.mark.parametrize("width,height", SIZES)
def test_a_phone_that_showed_the_round_over_is_not_told_it_missed_it(
    contexts, live_server, width, height
):
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    start_night(night, seed=3)
    table = night.tables.get(number=2)
    page = phone(contexts, f"{live_server.url}/t/{table.token}/", width, height)
    expect(page.locator("#taps")).to_be_visible()
    play_round(night)
    expect(page.locator("#board")).to_contain_text("Round 1 is over")
    expect(page.locator("#board .moves")).to_be_visible()
    # The host starts the next round a few seconds later (sooner than anyone reads it all).
    round_start(night=night)
    until(page, "document.body.dataset.movesFor === '2'", "round 2 not drawn")
    expect(page.locator("#taps")).to_be_visible()
    expect(page.locator("#missed-moves")).to_have_count(0)


@pytest.mark.parametrize("width,height", SIZES)
def test_a_phone_that_was_away_is_told_with_the_title_on_screen(
    contexts, live_server, width, height
):
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    start_night(night, seed=3)
    table = night.tables.get(number=2)
    page = phone(contexts, f"{live_server.url}/t/{table.token}/", width, height)
    expect(page.locator("#taps")).to_be_visible()
    page.context.set_offline(True)
    play_round(night)
    round_start(night=night)
    page.context.set_offline(False)
    box = page.locator("#missed-moves")
    expect(box).to_be_visible()
    expect(box).to_contain_text("Round 1 is over. Where everyone from this table sits now:")
    until(page, TITLE_ON_SCREEN, "the dialog's title is not on the screen")
    expect(page.get_by_role("heading", name="Round 2 has started")).to_be_in_viewport()
    # However long the list, "Got it" is on the screen without scrolling the dialog.
    expect(box.get_by_role("button", name="Got it")).to_be_in_viewport()
