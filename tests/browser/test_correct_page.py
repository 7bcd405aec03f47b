"""The host's Correct page in a browser (docs/rules.md section 6.2): each of its forms
posts to its own correction's address and comes back to the page of the round it
corrected, saying what was done."""

import pytest
from playwright.sync_api import expect

from bunco_night.play.models import Entry
from bunco_night.play.services import bell_ring, table_done
from bunco_night.play.state import round_board
from tests.browser.helpers import host_page
from tests.factories import make_group, make_night
from tests.play.helpers import play_round, start_night, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_host_adds_undoes_and_puts_back_an_entry_of_a_closed_round(contexts, live_server):
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    start_night(night)
    play_round(night)
    start_night(night)  # round 2 in play: the page corrects the round it shows
    path = f"/nights/{night.pk}/live/table/2/?round=1"
    host = host_page(contexts, live_server, night, path=path)
    expect(host.get_by_role("heading", name="Table 2, round 1")).to_be_visible()
    host.get_by_label("Rolled for").select_option("3")
    host.get_by_label("Roll", exact=True).select_option("miss")
    host.get_by_role("button", name="Add", exact=True).click()
    expect(host.locator(".messages")).to_contain_text("Saved.")
    assert host.url == f"{live_server.url}{path}"
    added = Entry.objects.get(table__number=2, by_host=True)
    assert added.round.number == 1 and added.seat == 3 and added.kind == "miss"

    button = host.locator(f"button[name=entry][value='{added.pk}']")
    expect(button).to_have_text("Undo")
    button.click()
    expect(host.locator(".messages")).to_contain_text("Saved.")
    expect(button).to_have_text("Put back")
    added.refresh_from_db()
    assert added.undone_at is not None
    button.click()
    expect(host.locator(".messages")).to_contain_text("Saved.")
    expect(button).to_have_text("Undo")
    added.refresh_from_db()
    assert added.undone_at is None
    assert host.url == f"{live_server.url}{path}"


def test_the_host_records_a_tie_break_and_a_winner_as_the_scores_say(contexts, live_server):
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    start_night(night)
    t3 = night.tables.get(number=3)
    for seat in range(1, 5):
        tap(t3, seat, "miss")
    bell_ring(night=night)
    table_done(table=t3)  # tied, 0 to 0
    host = host_page(contexts, live_server, night, path=f"/nights/{night.pk}/live/table/3/")
    host.get_by_label("Winner (overrides the scores)").select_option("")
    host.get_by_role("button", name="Save winner").click()
    expect(host.locator(".messages")).to_contain_text(
        "Table 3 is tied, 0 to 0: the scores do not decide its winner."
    )
    host.get_by_label("The extra turns were won by").select_option("1")
    host.get_by_role("button", name="Record who won the tie").click()
    expect(host.locator(".messages")).to_contain_text("Saved.")
    assert round_board(night.rounds.get(number=1)).table(t3.pk).winner_side == 1
