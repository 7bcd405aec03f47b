"""A host ends the night early from the live board, in real headless Chromium
(docs/rules.md section 7.4): the board, the prize standings and the room screen say the
night is over, and nothing on them is "so far" any more. Pages are photographed into
helpers.SHOTS.
"""

import pytest
from playwright.sync_api import expect

from bunco_night.nights.models import Night
from bunco_night.play.services import round_start
from tests.browser.helpers import SHOTS, host_page
from tests.factories import make_group, make_night, make_user
from tests.play.helpers import play_round, start_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_host_ends_the_night_early_and_the_screens_say_it_is_over(contexts, live_server):
    group = make_group(user=make_user(), regulars=4, substitutes=0, marks=(1, 2, 3))
    night = make_night(group, sets=2)  # six rounds
    start_night(night)
    play_round(night, winners=[1])
    round_start(night=night)
    play_round(night, winners=[2])  # two players level in set 1
    page = host_page(contexts, live_server, night)
    line = page.locator(".round-line")
    expect(line.get_by_role("listitem")).to_have_text(
        ["Round 3 of 6", "Not started", "roll for 3s"]
    )

    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="End the night").click()
    expect(line).to_have_text("Night over after round 2 of 6")
    assert Night.objects.get(pk=night.pk).is_over
    board = page.locator("#board")
    expect(board.get_by_role("heading", name="Prizes", exact=True)).to_be_visible()
    expect(board.get_by_role("heading", name="Standings", exact=True)).to_be_visible()
    expect(board).not_to_contain_text("so far")
    expect(board).not_to_contain_text("Closed")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / "night-over-live.png", full_page=True)

    page.get_by_role("link", name="Prize standings").first.click()
    expect(page.locator(".lead")).to_contain_text("Night over after round 2 of 6")
    sets = page.get_by_role("region", name="Set winners")
    expect(sets).to_contain_text("Set 1 (2 of 3 rounds: the night ended)")
    expect(page.locator("main")).not_to_contain_text("so far")
    # The set ended level: its roll-off can be recorded now.
    expect(sets.get_by_label("Who won the roll-off?")).to_be_visible()
    page.screenshot(path=SHOTS / "night-over-standings.png", full_page=True)

    page.goto(f"{live_server.url}/nights/{night.pk}/room/")
    expect(page.locator("h1.room-round")).to_contain_text("Night over after round 2 of 6")
    expect(page.locator("#screen")).not_to_contain_text("Roll for")
    expect(page.locator(".room-main .room-prizes")).to_contain_text("Most wins")
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.screenshot(path=SHOTS / "night-over-room.png")
