"""When a round closes, each table phone says who won at its table, with the score, at the
top with "Round N is over", on the first screen of the phone (with Bigger text too)."""

import pytest
from playwright.sync_api import expect

from bunco_night.play.pages import table_page
from tests.browser.helpers import phone
from tests.factories import make_group, make_night
from tests.play.helpers import play_round, start_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def table_phone(contexts, url, width, height, text):
    page = phone(contexts, url, width=width, height=height)
    if text == "bigger":
        page.get_by_role("button", name="Bigger text").click()
        page.reload()
    return page


def seat_names(table):
    return [seat.occupant_name for seat in table_page(table).here.seats]


@pytest.mark.parametrize(
    "width,height,text", [(360, 740, "normal"), (360, 740, "bigger"), (390, 844, "normal")]
)
def test_the_table_phone_says_who_won_at_its_table(contexts, live_server, width, height, text):
    night = make_night(make_group(regulars=11, substitutes=0), sets=1)  # tables of 4, 4, 3
    start_night(night, seed=3)
    four, three = night.tables.get(number=2), night.tables.get(number=3)
    assert table_page(three).here.size == 3
    pairs, solo = seat_names(four), seat_names(three)
    page = table_phone(contexts, f"{live_server.url}/t/{four.token}/", width, height, text)
    alone = table_phone(contexts, f"{live_server.url}/t/{three.token}/", width, height, text)
    expect(page.locator("#taps")).to_be_visible()
    # Everyone rolls a miss, then seat 2 (of seats 2 and 4) at table 2 scores two points
    # a roll to 22 (its target 21), and seat 3 at table 3 to 12 (a table of three plays
    # to 11: docs/rules.md section 3.3); the others stay at 0.
    play_round(night, winners=[1, 2, 3])

    for shown, words in [
        (page, f"{pairs[1]} & {pairs[3]} won at this table, 22–0."),
        (alone, f"{solo[2]} won at this table, 12–0–0."),
    ]:
        expect(shown.locator("#board")).to_contain_text("Round 1 is over.")
        winner = shown.locator("#board .round-winner")
        expect(winner).to_have_text(words)
        expect(winner).to_be_in_viewport(ratio=1)
        assert shown.evaluate("window.scrollY") == 0
