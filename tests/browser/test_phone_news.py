"""The table phone's news shows at the top of its screen without the player scrolling: the
bell with its Done (on the first screen, never below the fold), "Done, waiting", and, when
the round closes, "Round 1 is over" with who won at the table and where to sit next,
however far down the page the player had scrolled."""

import pytest
from playwright.sync_api import expect

from bunco_night.play.services import round_close, table_done
from bunco_night.play.state import round_board
from tests.browser.helpers import phone
from tests.factories import make_group, make_night
from tests.play.helpers import ring_the_bell, start_night
from tests.play.helpers import tap as server_tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [(360, 740), (390, 844), (360, 640)]


def on_screen(page, locator, what: str):
    """``locator`` lies wholly inside the phone's screen as it is scrolled now."""
    expect(locator).to_be_visible()
    box = locator.bounding_box()
    height = page.viewport_size["height"]
    assert box["y"] >= 0 and box["y"] + box["height"] <= height, (
        f"{what}: from {box['y']:.0f} to {box['y'] + box['height']:.0f} px of {height}"
    )


def scroll_down(page):
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")


@pytest.mark.parametrize("width,height", SIZES)
def test_the_bell_done_and_the_round_s_end_show_at_the_top_of_the_screen(
    contexts, live_server, width, height
):
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    rnd = start_night(night, seed=3)
    table = night.tables.get(number=2)
    for seat, kind, count in [(1, "points", 2), (1, "points", 1), (1, "miss", 0)]:
        server_tap(table, seat, kind, count)
    for seat, kind, count in [(2, "points", 1), (2, "miss", 0), (3, "miss", 0)]:
        server_tap(table, seat, kind, count)
    page = phone(contexts, f"{live_server.url}/t/{table.token}/", width=width, height=height)
    expect(page.locator("#recent .recent li")).to_have_count(6)

    scroll_down(page)  # down at the entries, or the dice entry
    ring_the_bell(night)
    banner = page.locator("#board .bell-banner")
    expect(banner).to_contain_text("BELL!")
    on_screen(page, banner, "the bell")
    done = page.get_by_role("button", name="Done ✔")
    on_screen(page, done, "Done at the bell")

    page.locator("label.chip:has(input[value='4'])").click()  # the last to roll once
    page.locator("#taps button[value='miss']").click()
    expect(banner).not_to_contain_text("Still to roll once")
    page.evaluate("window.scrollTo(0, 0)")
    on_screen(page, done, "Done on the first screen")  # never below the fold

    scroll_down(page)
    table_done(table=table)  # another phone at the table taps Done
    waiting = page.locator("#board .done-banner")
    expect(waiting).to_contain_text("Done. Waiting for the other tables.")
    on_screen(page, waiting, "Done, waiting")

    scroll_down(page)
    for tv in round_board(rnd).tables:
        if not tv.finished:
            server_tap(tv.table, 1, "points", 1)
            for seat in range(1, tv.size + 1):
                server_tap(tv.table, seat, "miss")
            table_done(table=tv.table)
    round_close(rnd=rnd)
    over = page.locator("#board").get_by_text("Round 1 is over.")
    expect(over).to_be_visible()
    on_screen(page, over, "the round over")
    on_screen(page, page.locator("#board .round-winner"), "who won at the table")
    on_screen(page, page.get_by_role("heading", name="Where to sit next"), "where to sit next")
