"""A room of phones plays a night in real headless Chromium.

Three table phones, a player's own page and the host's live board, each a page of
its own; every seat move is checked against docs/rules.md section 5.
"""

import re

import pytest
from playwright.sync_api import expect

from bunco_night.nights.models import Round
from bunco_night.nights.services import seating_draw
from bunco_night.play.models import Entry
from bunco_night.play.standings import night_standings
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


def test_a_12_player_house_night_from_phones(contexts, live_server):
    group = make_group(regulars=12, substitutes=0)
    night = make_night(group, sets=1)
    seating_draw(night=night, seed=12)
    host = host_page(contexts, live_server, night)
    phones = {
        t.number: phone(contexts, f"{live_server.url}/t/{t.token}/") for t in night.tables.all()
    }
    me = night.attendances.order_by("pk").first()
    player = phone(contexts, f"{live_server.url}/p/{me.token}/")
    # Which side wins at each table, round by round: (head, table 2, table 3), seat 1 or 2.
    plan = [(1, 1, 2), (2, 1, 1), (1, 2, 1), (2, 2, 2), (1, 1, 1), (2, 2, 1)]
    for number, winners in enumerate(plan, start=1):
        host_click(host, f"Start round {number}")
        rnd = night.rounds.get(number=number)
        before = seats_of(rnd)
        for p in phones.values():
            expect(p.locator("#board")).to_contain_text(f"Round {number} of 6")
            past_where_to_sit(p, number)
            expect(p.locator("#taps")).to_be_visible()
        # Everyone rolls once: a miss each (docs/rules.md section 3.1, "each player must have
        # had at least one roll").
        for p in phones.values():
            for seat in (1, 2, 3, 4):
                tap(p, seat, "miss")
        # Tables 2 and 3: the planned side leads.
        for t in (2, 3):
            tap(phones[t], winners[t - 1], "points:2")
            expect(score(phones[t], winners[t - 1] - 1)).to_have_text("2")
        # The head table reaches 21: the bell rings everywhere.
        head, side = phones[1], winners[0] - 1
        for i in range(11):
            tap(head, winners[0], "points:2")
            expect(score(head, side)).to_have_text(str(2 * (i + 1)))
        for t in (2, 3):
            expect(phones[t].locator(".bell-banner")).to_contain_text("BELL!")
            assert phones[t].locator("#board").get_attribute("data-bell") == "1"
        expect(player.locator("#card")).to_have_attribute("data-bell", "1")
        for t in (2, 3):
            phones[t].get_by_role("button", name="Done ✔").click()
            expect(phones[t].locator(".done-banner")).to_be_visible()
        host_click(host, f"Close round {number}")
        rnd.refresh_from_db()
        assert rnd.status == Round.Status.CLOSED
        if number == len(plan):
            break
        after = seats_of(night.rounds.get(number=number + 1))
        # docs/rules.md section 5.1 (Party Bunco): the winners stay, the losers go to the
        # next table and the last table's losers to Table 1; stayers and arrivals split up.
        for t in (1, 2, 3):
            won = winners[t - 1]
            stay = {before[t][won - 1], before[t][won + 1]}
            go = set(before[t]) - stay
            nxt = t % 3 + 1
            assert stay <= set(after[t]) and go <= set(after[nxt])
            assert {after[t][0], after[t][2]} not in (stay, go)
            assert {after[t][1], after[t][3]} not in (stay, go)
        # Every phone shows where to sit next, in large type.
        for t, p in phones.items():
            expect(p.locator(".moves")).to_be_visible()
            for pid in before[t]:
                name = group.players.get(pk=pid).name
                table_next = next(n for n, ids in after.items() if pid in ids)
                seat_next = after[table_next].index(pid) + 1
                row = p.locator(".moves li").filter(
                    has=p.locator(".who", has_text=re.compile(f"^{re.escape(name)}$"))
                )
                expect(row).to_contain_text(f"Table {table_next}")
                expect(row).to_contain_text(f"Seat {seat_next}")
        mine = next(n for n, ids in after.items() if me.player_id in ids)
        expect(player.locator(".next-seat")).to_contain_text(f"Table {mine}")
    night.refresh_from_db()
    assert night.status == "finished"
    # The prize standings on the host's page match the engine's standings.
    host.goto(f"{live_server.url}/nights/{night.pk}/standings/")
    result = night_standings(night)
    assert sum(s.wins for s in result.standings) == 6 * 6
    table = host.locator("table.grid").first
    for row in result.prize_rows:
        prize, candidates, winner = row.prize, row.candidates, row.winner
        row = table.locator("tr", has_text=prize.title)
        if prize.tied:
            expect(row).to_contain_text("Tie:")
            for c in candidates:
                expect(row).to_contain_text(c.name)
        elif winner:
            expect(row).to_contain_text(winner.name)
    best, best_player = result.rows[0]
    expect(host.locator("table.grid").nth(1)).to_contain_text(best_player.name)
    expect(player.locator(".totals")).to_contain_text(
        str(next(s.wins for s, p in result.rows if p.pk == me.player_id))
    )


def test_a_9_player_deluxe_night_where_a_bunco_ends_the_round(contexts, live_server):
    group = make_group(rules="deluxe", regulars=9, substitutes=0)
    night = make_night(group)
    seating_draw(night=night, seed=9)
    host = host_page(contexts, live_server, night)
    phones = {
        t.number: phone(contexts, f"{live_server.url}/t/{t.token}/") for t in night.tables.all()
    }
    host_click(host, "Start round 1")
    rnd = night.rounds.get(number=1)
    before = seats_of(rnd)
    assert [len(before[t]) for t in (1, 2, 3)] == [4, 3, 2]  # docs/rules.md section 4.1: 9 = 4+3+2
    for p in phones.values():
        expect(p.locator("#taps")).to_be_visible()
    tap(phones[1], 2, "points:1")  # team 2+4 leads at the head table
    expect(score(phones[1], 1)).to_have_text("1")
    tap(phones[3], 2, "points:2")  # seat 2 leads at the 2-seat table
    expect(score(phones[3], 1)).to_have_text("2")
    # Table 2's seat 3 rolls a true bunco: it ends the round at every table (section 3).
    tap(phones[2], 3, "bunco")
    phones[2].locator("#who-bunco button.current").click()
    for p in phones.values():
        expect(p.locator("#taps")).to_have_count(0)
    view = round_board(rnd)
    assert view.over and view.bell
    assert [tv.winner_side for tv in view.tables] == [1, 2, 1]
    bunco = Entry.objects.get(kind="bunco")
    assert bunco.roller_id == before[2][2]
    host_click(host, "Close round 1")
    after = seats_of(night.rounds.get(number=2))
    # docs/rules.md section 5.1, nine players: "both players at Table Three move to Table One;
    # the losing players at Table One move to Table Two and those from Table Two move to Table
    # Three."
    assert set(before[3]) <= set(after[1])
    assert {before[1][0], before[1][2]} <= set(after[2])
    assert {before[2][0], before[2][1]} <= set(after[3])
    assert {before[1][1], before[1][3]} <= set(after[1]) and before[2][2] in after[2]
    expect(phones[2].locator(".moves")).to_contain_text("Table 3")


def test_a_phone_offline_for_a_few_taps_loses_and_doubles_nothing(contexts, live_server):
    group = make_group(regulars=12, substitutes=0)
    night = make_night(group, sets=1)
    seating_draw(night=night, seed=3)
    from bunco_night.play.services import round_start

    round_start(night=night)
    t2 = night.tables.get(number=2)
    page = phone(contexts, f"{live_server.url}/t/{t2.token}/")
    tap(page, 1, "points:2")
    expect(score(page, 0)).to_have_text("2")
    page.context.set_offline(True)
    tap(page, 1, "points:1")
    tap(page, 2, "points:2")
    tap(page, 3, "points:1")
    expect(page.locator("#offline")).to_contain_text("Offline")
    expect(page.locator("#offline")).to_contain_text("3 taps wait")
    assert Entry.objects.filter(table=t2).count() == 1
    page.context.set_offline(False)
    expect(page.locator("#offline")).to_be_hidden()  # every tap sent, and stored
    expect(score(page, 0)).to_have_text("4")  # seats 1+3: 2 + 1 + 1
    expect(score(page, 1)).to_have_text("2")
    assert Entry.objects.filter(table=t2).count() == 4

    # A response lost on the way back: the phone retries the same tap, stored once.
    state = {"dropped": False}

    def lose_first_answer(route):
        if not state["dropped"]:
            state["dropped"] = True
            route.fetch()  # the server stores the tap...
            route.abort()  # ...but the phone never hears back
        else:
            route.continue_()

    page.route("**/entry/", lose_first_answer)
    tap(page, 4, "points:2")
    expect(page.locator("#recent .recent li")).to_have_count(5)
    expect(page.locator("#offline")).to_be_hidden()  # sent again, and heard this time
    expect(score(page, 1)).to_have_text("4")
    assert state["dropped"]
    assert Entry.objects.filter(table=t2).count() == 5
    # Undo a mis-tap.
    page.locator("#recent .recent button", has_text="Undo").first.click()
    expect(score(page, 1)).to_have_text("2")


def test_the_live_boards_buttons_before_a_round_are_each_as_tall_as_their_text(
    contexts, live_server
):
    """Start round N is a big button; Swap seats first, a link beside it, keeps its own
    height, centred on the row, instead of stretching to the big one's with its words at
    the top."""
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    seating_draw(night=night, seed=12)
    host = host_page(contexts, live_server, night)
    start = host.get_by_role("button", name="Start round 1").bounding_box()
    swap = host.get_by_role("link", name="Swap seats first").bounding_box()
    assert swap["height"] < start["height"] - 4, (swap, start)
    middle = swap["y"] + swap["height"] / 2
    assert abs(middle - (start["y"] + start["height"] / 2)) <= 2, (swap, start)
