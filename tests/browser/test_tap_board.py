"""A tap's answer carries the table's board, in real headless Chromium: the phone shows it
without asking the server for the board again."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import phone, score, tap
from tests.factories import make_group, make_night
from tests.play.helpers import start_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_taps_show_the_board_their_answers_carry_while_no_poll_is_answered(contexts, live_server):
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    start_night(night, seed=3)
    t2 = night.tables.get(number=2)
    page = phone(contexts, f"{live_server.url}/t/{t2.token}/")
    expect(score(page, 0)).to_have_text("0")
    held = []

    def hold(route):
        """Every poll of the board from now on is held, never answered."""
        held.append(route)

    page.route(re.compile(r"/state/"), hold)
    tap(page, 1, "points:2")
    expect(score(page, 0)).to_have_text("2")
    tap(page, 2, "points:1")
    expect(score(page, 1)).to_have_text("1")
    expect(page.locator("#recent li")).to_have_count(2)
    t2.refresh_from_db()
    night.refresh_from_db()
    # The board polls on from the version the taps left: its next poll is a 204.
    expect(page.locator("#board")).to_have_attribute(
        "hx-get", re.compile(rf"\?v={night.version}\.{t2.version}$")
    )
    expect(page.locator("#queue")).to_be_hidden()
