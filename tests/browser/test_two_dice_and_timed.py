"""Two rounds of two-dice bunko and a timed round, played from phones in headless Chromium
(docs/rules.md sections 9.2, 3.9 and 3.8)."""

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from bunco_night.nights.models import Round
from bunco_night.nights.services import seating_draw
from bunco_night.play.models import Entry
from bunco_night.play.state import round_board
from tests.browser.helpers import host_page, past_where_to_sit, phone, score, tap
from tests.factories import make_group, make_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def seats_of(rnd):
    """table number -> player ids in seat order."""
    return {tv.table.number: [s.player_id for s in tv.seats] for tv in round_board(rnd).tables}


def host_click(host, name):
    host.get_by_role("button", name=name).click()
    host.wait_for_load_state()


def enter_dice(page, seat, faces):
    """Pick who is rolling, open the dice entry, tap a face per die, score them."""
    page.locator(f"label.chip:has(input[value='{seat}'])").click()
    details = page.locator("details.dice-entry")
    if details.get_attribute("open") is None:
        page.get_by_text("Enter the dice instead").click()
    for die, face in enumerate(faces, start=1):
        page.locator(f".die-row[aria-label='Die {die}'] label:has(input[value='{face}'])").click()
    page.get_by_role("button", name="Score these dice").click()


def test_two_rounds_of_two_dice_bunko_from_phones(contexts, live_server):
    night = make_night(make_group(rules="two_dice", regulars=12, substitutes=0), sets=1)
    seating_draw(night=night, seed=21)
    host = host_page(contexts, live_server, night)
    phones = {
        t.number: phone(contexts, f"{live_server.url}/t/{t.token}/", 360, 640)
        for t in night.tables.all()
    }

    # Round 1: three doubles in a row at table 2 are a bunco that wins there at once and
    # stops every table (section 9.2); the leader wins each other table.
    host_click(host, "Start round 1")
    rnd = night.rounds.get(number=1)
    before = seats_of(rnd)
    for p in phones.values():
        expect(p.locator("#taps")).to_be_visible()
        expect(p.locator(".die-row")).to_have_count(2)  # two dice per roll
        expect(p.locator("#taps legend")).to_contain_text("starts")  # the first roller
    tap(phones[1], 2, "points:1")
    expect(score(phones[1], 1)).to_have_text("1")
    tap(phones[3], 1, "pair")
    expect(score(phones[3], 0)).to_have_text("2")
    tap(phones[2], 2, "pair")
    expect(score(phones[2], 1)).to_have_text("2")  # Them lead 2-0 at table 2
    tap(phones[2], 1, "doubles")
    tap(phones[2], 1, "doubles")
    expect(phones[2].locator(".streak")).to_contain_text("2 doubles in a row. One more wins!")
    tap(phones[2], 1, "doubles")  # the third: the phone's count makes it a bunco
    for p in phones.values():
        expect(p.locator("#taps")).to_have_count(0)
        expect(p.locator(".bell-banner")).to_contain_text("Round over at this table")
    bunco = Entry.objects.get(kind="bunco")
    assert (bunco.points, bunco.roller_id) == (0, before[2][0])
    board = round_board(rnd)
    assert board.over and [t.winner_side for t in board.tables] == [1, 0, 0]
    expect(host.locator("#board")).to_contain_text("close the round")
    host_click(host, "Close round 1")

    # Ladder movement with head-table partners staying (sections 5.2 and 5.4).
    after = seats_of(night.rounds.get(number=2))
    head_winners = {before[1][1], before[1][3]}
    assert head_winners <= set(after[1])
    assert {after[1][0], after[1][2]} == head_winners or {after[1][1], after[1][3]} == (
        head_winners
    )
    assert {before[2][0], before[2][2]} <= set(after[1])  # table 2's winners move up
    assert {before[1][0], before[1][2]} <= set(after[3])  # head losers to the bottom
    for p in phones.values():
        expect(p.locator(".moves")).to_be_visible()

    # Round 2: the dice entered as two dice; the first team anywhere to 21 stops every
    # table (section 3.9).
    host_click(host, "Start round 2")
    rnd = night.rounds.get(number=2)
    mark, other = rnd.mark, rnd.mark % 6 + 1
    for p in phones.values():
        expect(p.locator("#board")).to_contain_text("Round 2 of 6")
        past_where_to_sit(p, 2)
    tap(phones[1], 3, "points:1")
    expect(score(phones[1], 0)).to_have_text("1")
    tap(phones[2], 1, "points:1")
    expect(score(phones[2], 0)).to_have_text("1")
    p3 = phones[3]
    enter_dice(p3, 2, [mark, mark])  # a pair: 2
    expect(score(p3, 1)).to_have_text("2")
    enter_dice(p3, 2, [mark, other])  # one die: 1, and the run of doubles is broken
    expect(score(p3, 1)).to_have_text("3")
    for i in range(6):  # a pair, then one die: never three doubles in a row
        tap(p3, 4, "pair")
        tap(p3, 4, "points:1")
        expect(score(p3, 1)).to_have_text(str(3 + 3 * (i + 1)))
    # 21 at table 3: every table stops, and its leader wins.
    for p in phones.values():
        expect(p.locator(".bell-banner")).to_contain_text("Round over at this table")
    rnd.refresh_from_db()
    assert rnd.bell_at is not None and not rnd.bell_by_host
    assert [t.winner_side for t in round_board(rnd).tables] == [0, 0, 1]
    host_click(host, "Close round 2")
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.CLOSED


def test_a_timed_round_rings_the_bell_on_every_phone_when_the_time_is_up(contexts, live_server):
    night = make_night(make_group(regulars=8, substitutes=0, round_minutes=1), sets=1)
    seating_draw(night=night, seed=5)
    host = host_page(contexts, live_server, night)
    host_click(host, "Start round 1")
    rnd = night.rounds.get(number=1)
    phones = {
        t.number: phone(contexts, f"{live_server.url}/t/{t.token}/", 360, 640)
        for t in night.tables.all()
    }
    me = night.attendances.order_by("pk").first()
    player = phone(contexts, f"{live_server.url}/p/{me.token}/")
    for p in [*phones.values(), player]:
        expect(p.locator("[role=timer]")).to_contain_text(":")  # 1:00 or 0:59
    for t, p in phones.items():
        for seat in (1, 2, 3, 4):
            tap(p, seat, "miss")
        tap(p, t, "points:2")  # table 1: seat 1 leads; table 2: seat 2 leads
        expect(score(p, (t - 1) % 2)).to_have_text("2")
    # Nearly a minute has gone by: the pages count down the last seconds the server gives.
    Round.objects.filter(pk=rnd.pk).update(started_at=timezone.now() - dt.timedelta(seconds=56))
    for p in [*phones.values(), player]:
        p.reload()
    # Nobody taps: at zero every phone asks the server, which rings the bell.
    for p in phones.values():
        expect(p.locator(".bell-banner")).to_contain_text("Time's up!", timeout=20_000)
        expect(p.locator("[role=timer]")).to_contain_text("Time's up")
    expect(player.locator(".bell-banner")).to_contain_text("Time's up!")
    expect(host.locator("#board")).to_contain_text("Time's up")
    rnd.refresh_from_db()
    assert rnd.bell_at == rnd.started_at + dt.timedelta(minutes=1) and not rnd.bell_by_host
    # Head-table control (section 3.1): every table finishes the turn and taps Done; the
    # leader wins.
    for p in phones.values():
        p.get_by_role("button", name="Done ✔").click()
        expect(p.locator(".done-banner")).to_be_visible()
    assert [t.winner_side for t in round_board(rnd).tables] == [0, 1]
    host_click(host, "Close round 1")
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.CLOSED
