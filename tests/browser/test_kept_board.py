"""Several phones at one table, in real headless Chromium: one taps, the others' polls get
the board that tap kept (bunco_night/play/speed/boards.py), and an undo or a renamed player
reaches them all the same."""

import re
import time

import pytest
from playwright.sync_api import expect

from bunco_night.groups.services import player_update
from bunco_night.play.models import Board
from bunco_night.play.state import round_board
from tests.browser.helpers import phone, score, tap
from tests.factories import make_group, make_night
from tests.play.helpers import start_night

# Phones at one table at once: what the database does with their requests is the point.
pytestmark = [
    pytest.mark.browser,
    pytest.mark.both_databases,
    pytest.mark.django_db(transaction=True),
]

SCORE_2 = 'data-testid="score-0">2<'


def kept_board(table, shows: str, timeout: float = 5) -> Board:
    """The table's kept board once it ``shows`` what it must: the board is kept after the
    answer that carried it has gone (bunco_night/core/speed/after_answer.py), so a phone may
    show it a moment before it is kept."""
    deadline = time.monotonic() + timeout
    while True:
        kept = Board.objects.filter(table=table).first()
        if kept is not None and shows in kept.html:
            return kept
        assert time.monotonic() < deadline, f"no board kept showing {shows!r}"
        time.sleep(0.05)


def test_the_other_phones_at_a_table_follow_one_that_taps(contexts, live_server):
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    rnd = start_night(night)
    table = night.tables.get(number=2)
    url = f"{live_server.url}/t/{table.token}/"
    tapper, *others = [phone(contexts, url, width=w) for w in (320, 390, 430)]

    tap(tapper, 1, "points:2")
    expect(score(tapper, 0)).to_have_text("2")
    kept = kept_board(table, SCORE_2)
    for other in others:  # within a poll or two, from the board the tap kept
        expect(score(other, 0)).to_have_text("2")
    assert kept.html.count(SCORE_2) == 1
    assert tapper.locator("#board").inner_html() == others[0].locator("#board").inner_html()

    # A mis-tap undone on another phone: every phone shows the score without it.
    tap(tapper, 2, "points:1")
    expect(score(others[1], 1)).to_have_text("1")
    others[1].get_by_role("button", name="Undo").first.click()
    for page in (tapper, others[0], others[1]):
        expect(score(page, 1)).to_have_text("0")

    # The host corrects a seated player's name: every phone shows the new name (by first
    # name in the score box, now that no one else at the table is a Zoe; whole in what a
    # screen reader says of the score).
    seat = round_board(rnd).table(table.pk).seats[0]
    player_update(player=seat.player, name="Zoe Corrected")
    for page in (tapper, *others):
        scores = page.locator("#board .scores")
        expect(scores).to_have_attribute("data-announce", re.compile(r"\bZoe Corrected & "))
        expect(scores.locator(".side-names").first).to_contain_text("Zoe")
