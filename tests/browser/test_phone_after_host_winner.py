"""A table phone at the bell, its turn not finished: the host sets the table's winner
(Correct > Save winner) and the phone, polling, says so at the top of its screen; the
bell's "Finish the turn" and its Done go (docs/rules.md section 6.2)."""

import pytest
from playwright.sync_api import expect

from bunco_night.play.services import winner_set
from tests.browser.helpers import phone
from tests.factories import make_group, make_night
from tests.play.helpers import ring_the_bell, start_night
from tests.play.helpers import tap as server_tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_phone_says_the_host_set_the_winner(contexts, live_server):
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    rnd = start_night(night, seed=3)
    table = night.tables.get(number=2)
    server_tap(table, 1, "miss")
    page = phone(contexts, f"{live_server.url}/t/{table.token}/", width=360, height=740)
    ring_the_bell(night)
    banner = page.locator("#board .bell-banner")
    expect(banner).to_contain_text("Still to roll once")
    expect(page.get_by_role("button", name="Done ✔")).to_be_visible()

    winner_set(rnd=rnd, table=table, side=1)
    expect(banner).to_contain_text("The host set the winner")
    expect(banner).not_to_contain_text("Finish the turn")
    expect(page.get_by_role("button", name="Done ✔")).to_have_count(0)
    expect(page.locator("#taps")).to_have_count(0)
    expect(page.locator(".score-box.winner")).to_contain_text("Regular 9")  # side 1 (seed 3)
    box = banner.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 740
