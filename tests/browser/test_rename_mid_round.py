"""The host renames a player while her table plays: the table phone's "Who's rolling?"
and "Who rolled the BUNCO?" show the new name at its next poll, the seat picked on the
phone still picked."""

import pytest
from playwright.sync_api import expect

from bunco_night.groups.services import player_update
from bunco_night.play.pages import table_page
from tests.browser.helpers import phone
from tests.factories import make_group, make_night
from tests.play.helpers import start_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width,height", [(360, 740), (390, 844)])
def test_a_renamed_player_s_chip_shows_her_new_name(contexts, live_server, width, height):
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    start_night(night, seed=3)
    table = night.tables.get(number=2)
    seat = table_page(table).here.seats[0]
    page = phone(contexts, f"{live_server.url}/t/{table.token}/", width, height)
    chip = page.locator("#taps label.chip:has(input[value='1'])")
    expect(chip).to_have_text(seat.occupant_name)
    page.locator("#taps label.chip:has(input[value='3'])").click()

    player_update(player=seat.player, name="Margaret O'Donnell")
    expect(chip).to_have_text("Margaret O'Donnell")
    expect(page.locator("#who-bunco button[value='1']")).to_have_text("Margaret O'Donnell")
    expect(page.locator("#taps input[name=seat][value='3']")).to_be_checked()
