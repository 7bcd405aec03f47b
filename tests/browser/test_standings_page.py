"""The prize standings in a browser (docs/rules.md sections 7.6 and 7.7): the door prize
drawn and a tied prize's tie-break recorded and undone, each form posting to its own
address and coming back to the standings, saying what was done."""

import pytest
from playwright.sync_api import expect

from bunco_night.nights.models import Night
from bunco_night.play.models import PrizeTiebreak
from bunco_night.play.standings import night_standings
from tests.browser.helpers import host_page
from tests.factories import make_group
from tests.play.helpers import door_prize_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_host_draws_the_door_prize_and_breaks_a_tie(contexts, live_server):
    night = door_prize_night(make_group(regulars=12, substitutes=0))
    path = f"/nights/{night.pk}/standings/"
    host = host_page(contexts, live_server, night, path=path)

    host.get_by_role("button", name="Draw the door prize").click()
    expect(host.locator(".messages")).to_contain_text("Door prize drawn.")
    assert host.url == f"{live_server.url}{path}"
    expect(host.get_by_role("heading", name="The door prize draw")).to_be_visible()
    assert Night.objects.get(pk=night.pk).door_seed is not None

    prize = next(p for p in night_standings(night).prizes if p.tied)
    winner = night.group.players.get(pk=prize.candidates[1])
    host.get_by_label("Who won the tie-break?").select_option(str(winner.pk))
    host.get_by_role("button", name="Record the Most wins tie-break").click()
    expect(host.locator(".messages")).to_contain_text("Tie-break recorded.")
    assert PrizeTiebreak.objects.get(night=night, code=prize.key).player == winner
    row = host.locator("table.prizes tr", has_text="Most wins")
    expect(row).to_contain_text(f"{winner.name} (won the tie-break among")

    row.get_by_role("button", name="undo tie-break").click()
    expect(host.locator(".messages")).to_contain_text("Tie-break cleared.")
    expect(host.locator("table.prizes tr", has_text="Most wins")).to_contain_text("Tie:")
    assert not PrizeTiebreak.objects.filter(night=night).exists()
    assert host.url == f"{live_server.url}{path}"
