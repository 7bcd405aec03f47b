"""The live board's "Standings so far" with 13 and with 30 players, in real headless
Chromium at a laptop's size: everyone is listed, or the first sixteen and a line saying
how many more there are and that Prize standings has them.

Pages are photographed into helpers.SHOTS for a person to look at.
"""

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import SHOTS, host_page
from tests.factories import make_group, make_night
from tests.play.helpers import play_round, start_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def played_night(players: int):
    night = make_night(make_group(regulars=players, substitutes=0), sets=1)
    start_night(night, seed=players)
    play_round(night)
    return night


def standings_rows(page):
    return page.get_by_role("region", name="Standings so far").locator("tbody tr")


def test_thirteen_players_are_all_in_the_standings(contexts, live_server):
    SHOTS.mkdir(parents=True, exist_ok=True)
    night = played_night(13)
    page = host_page(contexts, live_server, night)
    page.set_viewport_size({"width": 1366, "height": 768})
    expect(standings_rows(page)).to_have_count(13)
    shown = {
        name.strip() for name in standings_rows(page).locator("td:nth-child(2)").all_inner_texts()
    }
    assert shown == {f"Regular {i}" for i in range(1, 14)}
    expect(page.locator(".more-rows")).to_have_count(0)
    page.screenshot(path=SHOTS / "live-board-13-1366.png", full_page=True)


def test_thirty_players_show_sixteen_and_say_where_the_other_fourteen_are(contexts, live_server):
    SHOTS.mkdir(parents=True, exist_ok=True)
    night = played_night(30)
    page = host_page(contexts, live_server, night)
    page.set_viewport_size({"width": 1366, "height": 768})
    expect(standings_rows(page)).to_have_count(16)
    more = page.locator(".more-rows")
    expect(more).to_have_text("and 14 more: see Prize standings.")
    page.screenshot(path=SHOTS / "live-board-30-1366.png", full_page=True)
    more.get_by_role("link", name="Prize standings").click()
    expect(page.get_by_role("heading", name="Prize standings", level=1)).to_be_visible()
    expect(page.get_by_role("region", name="Standings").locator("tbody tr")).to_have_count(30)
