"""Table phones, players' pages and the host's live pages over HTTP."""

import datetime as dt
import re
from html import unescape

import pytest
from django.db import connection
from django.urls import reverse

from bunco_night.nights.selectors import current_round
from bunco_night.play.models import Entry
from bunco_night.play.services import bell_ring, entry_undo, round_close, round_start, winner_set
from bunco_night.play.state import round_board
from tests.factories import make_group, make_night, make_user
from tests.play.helpers import play_round, ring_the_bell, start_night, tap

pytestmark = pytest.mark.django_db


@pytest.fixture
def night():
    night = make_night(make_group(), sets=1)
    start_night(night)
    return night


def table(night, number=1):
    return night.tables.get(number=number)


def post_tap(client, t, **fields):
    fields.setdefault("nonce", f"n{Entry.objects.count():09d}x")
    fields.setdefault("seat", "1")
    fields.setdefault("round", "1")
    return client.post(
        reverse("play:table_entry", args=[t.token]), fields, HTTP_ACCEPT="application/json"
    )


def test_table_page_shows_the_round_seats_and_tap_buttons(client, night):
    t = table(night)
    html = client.get(reverse("play:table", args=[t.token])).content.decode()
    assert "Table 1" in html and "HEAD TABLE" in html and "Roll for <b>1s</b>" in html
    assert "BUNCO!" in html and "Mini bunco" in html and "Miss" in html
    for s in round_board(night.rounds.get(number=1)).table(t.pk).seats:
        assert s.player.name in html


def test_no_table_link_shows_a_phone_number_or_email(client, night):
    for t in night.tables.all():
        html = client.get(reverse("play:table", args=[t.token])).content.decode()
        assert "555-01" not in html and "@example.com" not in html
    a = night.attendances.first()
    html = client.get(reverse("play:player", args=[a.token])).content.decode()
    assert "555-01" not in html and "@example.com" not in html


def test_unknown_links_are_404(client):
    assert client.get("/t/not-a-real-token-at-all/").status_code == 404
    assert client.get("/p/not-a-real-token-at-all/").status_code == 404
    assert client.get("/t/nope/state/?v=1").status_code == 404


def test_a_poll_when_nothing_changed_is_one_query_and_empty(
    client, night, django_assert_num_queries
):
    """A poll when nothing changed costs one query or less (on the table's unique token,
    with its kept board's columns)."""
    t, other = table(night), table(night, 2)
    night.refresh_from_db()
    t.refresh_from_db()
    url = reverse("play:table_state", args=[t.token]) + f"?v={night.version}.{t.version}"
    with django_assert_num_queries(1):
        response = client.get(url)
    assert response.status_code == 204 and response.content == b""
    # A tap at another table leaves this table's poll unchanged... (That tap is alone at
    # its table: it reads its round with its seats, after its play's lock, and moves no
    # bell; on PostgreSQL its entry's insert and the versions' update are one statement.)
    with django_assert_num_queries(14 if connection.vendor == "sqlite" else 11):
        post_tap(client, other, tap="points:2")
    with django_assert_num_queries(1):
        assert client.get(url).status_code == 204
    # ...and a tap here changes it (the tap's reads, write and versions are pinned too, in
    # savepoints inside the test's transaction). The tap's answer carries the table's
    # board as the tap left it (drawn from what the tap read, and the late taps): the
    # phone that tapped does not poll for it. The board is kept for the other phones (in a
    # savepoint here: a transaction of its own when served). The table's update says
    # whether late taps wait here (the board asks no more). On PostgreSQL the table's
    # version and the night's scores version move in one statement, and a retried nonce
    # is looked up only when the write finds it stored.
    with django_assert_num_queries(15 if connection.vendor == "sqlite" else 13):
        board = post_tap(client, t, tap="points:2", round="1").json()["board"]
    # Another phone at the table polls: it gets the kept board, read in one query with
    # the version, whatever the night's size.
    with django_assert_num_queries(1):
        response = client.get(url, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="board"') and "<html" not in html
    assert board == html
    # Drawn afresh (a request not from htmx), it is the same, in a few queries: the
    # version, then the table (with its night and group), the round, the late taps, the
    # seats, the play and its entries; and keeping it (in a savepoint here).
    with django_assert_num_queries(10):
        assert client.get(url).content.decode() == html
    # Players' pages do not re-render for taps; the host's board does.
    a = night.attendances.first()
    url = reverse("play:player_state", args=[a.token]) + f"?v={night.version}"
    with django_assert_num_queries(1):
        assert client.get(url).status_code == 204
    night.refresh_from_db()
    assert night.scores_version == 3


def test_entry_json_and_bad_input(client, night):
    t = table(night, 2)
    first = post_tap(client, t, tap="points:2").json()
    assert first.pop("board").lstrip().startswith('<section id="board"')
    assert first == {"ok": True, "late": False}
    again = post_tap(client, t, tap="points:2", nonce="n000000000x")  # the same nonce: a retry
    # A retry's answer is read afresh, and shows the tap once.
    again = again.json()
    assert (
        again.pop("board")
        == client.get(reverse("play:table_state", args=[t.token]) + "?v=0").content.decode()
    )
    assert again == {"ok": True, "late": False} and Entry.objects.count() == 1
    for fields, code in [
        ({"tap": "points:9"}, "bad_count"),
        ({"tap": "points:-1"}, "bad_count"),
        ({"tap": "jackpot"}, "bad_kind"),
        ({"tap": "points:1", "seat": "7"}, "bad_seat"),
        ({"tap": "points:1", "seat": "x"}, "bad_seat"),
        ({"tap": "points:1", "nonce": "<script>"}, "bad_nonce"),
        ({"tap": "dice", "d1": "9", "d2": "1", "d3": "1"}, "bad_dice"),
    ]:
        response = post_tap(client, t, **fields)
        assert response.status_code == 400 and response.json()["code"] == code
        assert response.json()["error"]
    assert Entry.objects.count() == 1


def _without_version(html):
    """A board fragment without its version, and the version (night, table)."""
    version = re.search(r'state/\?v=(\d+)\.(\d+)"', html)
    return html.replace(version.group(0), ""), tuple(map(int, version.groups()))


def check_tap_board(client, t, **fields):
    """Tap at ``t`` for round 1 as the phone does, then poll: the tap's board is what the
    poll shows, and its version the poll's or older. Returns the tap's answer, and whether
    the phone will ask once more (an older version)."""
    answer = post_tap(client, t, round="1", **fields).json()
    polled = client.get(reverse("play:table_state", args=[t.token]) + "?v=0")
    tapped, tap_version = _without_version(answer["board"])
    shown, poll_version = _without_version(polled.content.decode())
    assert tapped == shown
    assert tap_version <= poll_version
    return answer, tap_version < poll_version


def test_a_taps_board_is_what_a_poll_shows_next(client, night):
    """The board in a tap's answer is the fragment the table's poll gives right after it:
    as the bell rings, after Done, and for a late tap. Its version is the poll's, or older
    when the tap moved the night's (the bell): the phone then asks once more, and is never
    told a version newer than what it shows."""
    head, other = table(night), table(night, 2)
    asked_again = []
    for _ in range(12):  # the head table to its target: the bell rings
        answer, again = check_tap_board(client, head, tap="points:2")
        asked_again.append(again)
        if 'data-bell="1"' in answer["board"]:
            break
    assert 'data-bell="1"' in answer["board"] and asked_again[-1] and not any(asked_again[:-1])
    for seat in "1234":  # after the bell, another table finishes its turn, untied
        check_tap_board(client, other, tap="points:1" if seat == "1" else "miss", seat=seat)
    done = client.post(reverse("play:table_done", args=[other.token]), {"done": "1"})
    assert done.status_code == 302 and other.plays.get().finished_turn
    answer, _ = check_tap_board(client, other, tap="miss")  # after Done: a late tap
    assert answer["late"] and "arrived after the round ended" in answer["board"]


def test_a_taps_board_for_a_round_that_has_ended_is_read_afresh(client, night):
    play_round(night)
    answer, _ = check_tap_board(client, table(night, 2), tap="points:1")
    assert answer["late"] and "Round 1 is over" in answer["board"]


def test_plain_form_post_redirects_with_a_message(client, night):
    t = table(night, 2)
    url = reverse("play:table_entry", args=[t.token])
    response = client.post(
        url, {"nonce": "plainform01", "seat": "1", "tap": "points:1", "round": "1"}
    )
    assert response.status_code == 302 and response["Location"] == reverse(
        "play:table", args=[t.token]
    )
    response = client.post(
        url, {"nonce": "plainform02", "seat": "9", "tap": "points:1", "round": "1"}, follow=True
    )
    assert "That seat is not at this table." in response.content.decode()


@pytest.mark.parametrize(
    "number", ["0", "-1", "32768", "99999999999999999999999", "2", "abc", "1.0", " "]
)
def test_a_tap_for_a_round_the_night_has_not_is_refused(client, night, number):
    """Round numbers no round has (out of the column's range too) are refused, never an
    error page: a tap queued offline names the round it was for."""
    response = post_tap(client, table(night), tap="points:1", round=number)
    assert response.status_code == 400 and response.json()["code"] == "no_round"


@pytest.mark.parametrize("closed", [False, True])
def test_a_tap_that_names_no_round_is_refused_not_put_in_the_round_in_play(client, night, closed):
    """docs/rules.md section 2.3: a tap is for the round its buttons were drawn for, never
    for whichever round is in play when it arrives."""
    if closed:
        play_round(night)
        round_start(night=night)
    fields = {"nonce": "noround0001", "seat": "1", "tap": "points:1"}
    url = reverse("play:table_entry", args=[table(night, 2).token])
    response = client.post(url, fields, HTTP_ACCEPT="application/json")
    assert response.status_code == 400 and response.json()["code"] == "no_round_named"
    assert "reload the page" in response.json()["error"]
    response = client.post(url, fields | {"round": ""}, follow=True)  # a plain form
    assert "does not say which round" in response.content.decode()
    assert not Entry.objects.filter(nonce="noround0001").exists()


def test_between_rounds_the_table_shows_where_to_sit_next(client, night):
    play_round(night)
    html = client.get(reverse("play:table", args=[table(night, 2).token])).content.decode()
    assert "Where to sit next" in html and "Seat" in html
    # Who comes to sit here: everyone seated here next round who is not here now.
    t2 = table(night, 2)
    closed, nxt = night.rounds.order_by("number")[:2]
    here = set(closed.seats.filter(table=t2).values_list("player__name", flat=True))
    coming = {
        (s.player.name, s.number)
        for s in nxt.seats.filter(table=t2, player__isnull=False).select_related("player")
        if s.player.name not in here
    }
    assert coming, "the movement brings someone to table 2"
    arrivals = html.split("Coming to this table", 1)[1].split("</ul>", 1)[0]
    for name, seat in coming:
        row = f'<span class="who">{name}</span> → <span class="where">Seat {seat}</span>'
        assert row in arrivals
    assert arrivals.count('class="who"') == len(coming)


def test_a_head_table_bunco_tapped_by_mistake_is_undone_from_the_table(client, night):
    """docs/rules.md section 6.2: a table undoes its own entries until it taps Done. The
    head table's bunco ends the round there and rings the bell everywhere; its Undo takes
    the bell back."""
    head = table(night, 1)
    assert post_tap(client, head, tap="bunco").json()["ok"]
    rnd = night.rounds.get(number=1)
    rnd.refresh_from_db()
    assert rnd.bell_at is not None
    html = client.get(reverse("play:table", args=[head.token])).content.decode()
    assert "Round over at this table. A mis-tap? Undo it below." in html
    entry = Entry.objects.get(table=head, round=rnd)
    assert f'name="entry" value="{entry.pk}"' in html
    response = client.post(
        reverse("play:table_undo", args=[head.token]),
        {"entry": entry.pk},
        HTTP_ACCEPT="application/json",
    )
    assert response.json()["ok"]
    rnd.refresh_from_db()
    assert rnd.bell_at is None
    html = client.get(reverse("play:table", args=[head.token])).content.decode()
    assert 'id="taps"' in html and "Round over at this table" not in html
    # Once the table has tapped Done, its entries are the host's to correct.
    post_tap(client, head, tap="bunco")
    client.post(reverse("play:table_done", args=[head.token]), {"done": "1"})
    assert round_board(rnd).table(head.pk).play.finished_turn
    html = client.get(reverse("play:table", args=[head.token])).content.decode()
    assert 'name="entry"' not in html


def test_player_page_card_and_next_seat(client, night):
    a = night.attendances.first()
    html = client.get(reverse("play:player", args=[a.token])).content.decode()
    assert a.player.name in html and "Table" in html and "Seat" in html
    assert result_cells(html) == ['<span class="muted">playing</span>']
    play_round(night)
    html = client.get(reverse("play:player", args=[a.token])).content.decode()
    assert "Round 2: sit at" in html
    # Round 1 has its result; round 2 is seated but not started: up next, not playing.
    first, second = result_cells(html)
    assert first in ('<span class="w">Won</span>', '<span class="l">Lost</span>')
    assert second == '<span class="muted">up next</span>'
    round_start(night=night)
    html = client.get(reverse("play:player", args=[a.token])).content.decode()
    assert result_cells(html)[1] == '<span class="muted">playing</span>'


def test_before_the_night_a_player_s_page_says_when_and_where_it_is(client):
    night = make_night(make_group(user=make_user("elm")), date=dt.date(2026, 12, 10))
    night.time, night.place = dt.time(19, 0), "Bea's"
    night.save(update_fields=["time", "place"])
    a = night.attendances.first()
    page = unescape(client.get(reverse("play:player", args=[a.token])).content.decode())
    page = " ".join(page.split())
    assert "See you Thursday, December 10 at 7:00 PM, at Bea's." in page
    assert "Your table and seat show here when the host seats the first round." in page
    assert "Waiting for the host" not in page


def test_the_player_page_s_bell_says_what_the_table_phone_says(client, night):
    """docs/rules.md section 3.1: the head table's round is over when it rings the bell; the
    other tables finish the turn in play. A bell the host rings stops every table alike."""
    for _ in range(11):
        tap(table(night, 1), 1, "points", 2)
    assert "Your table rang the bell: round over at your table." in bell_line(client, night, 1)
    assert "Finish the turn in play." in bell_line(client, night, 2)

    rung_by_host = make_night(make_group(user=make_user("other")))
    start_night(rung_by_host)
    bell_ring(night=rung_by_host)
    assert "Finish the turn in play." in bell_line(client, rung_by_host, 1)


def bell_line(client, night, table_number: int) -> str:
    """The bell banner on the page of a player at table ``table_number`` in round 1."""
    seat = night.rounds.get(number=1).seats.filter(
        table__number=table_number, player__isnull=False
    )[0]
    attendance = night.attendances.get(player=seat.player)
    html = client.get(reverse("play:player", args=[attendance.token])).content.decode()
    return re.search(r'<div class="bell-banner"[^>]*>(.*?)</div>', html, re.S).group(1)


def result_cells(html: str) -> list[str]:
    """The result of each round on a player's card, as the page marks it up."""
    return re.findall(r'<span class="(?:muted|w|l)">(?:playing|up next|Won|Lost)</span>', html)


def test_host_pages_need_a_host_of_the_group(client, night):
    urls = [
        reverse(name, args=[night.pk])
        for name in (
            "play:live",
            "play:live_state",
            "play:room",
            "play:room_state",
            "play:standings",
        )
    ]
    urls.append(reverse("play:table_fix", args=[night.pk, 1]))
    for url in urls:
        assert client.get(url).status_code == 302  # to the login page
    make_user("stranger")
    client.login(username="stranger", password="bunco")
    for url in urls:
        assert client.get(url).status_code == 404
    assert (
        client.post(reverse("play:live_action", args=[night.pk]), {"action": "bell"}).status_code
        == 404
    )


def test_live_board_runs_the_round(client, night):
    client.login(username="host", password="bunco")
    live = reverse("play:live", args=[night.pk])
    html = client.get(live).content.decode()
    assert "Ring the bell" in html and "Close round 1" in html
    action = reverse("play:live_action", args=[night.pk])
    response = client.post(action, {"action": "close"}, follow=True)
    assert "Not every table is done" in response.content.decode()
    client.post(action, {"action": "bell"})
    assert night.rounds.get(number=1).bell_by_host
    html = client.get(live).content.decode()
    assert "The bell has rung." in html and "Close round 1" in html
    assert "Ring the bell" not in html  # rung: nothing more to ring
    response = client.post(action, {"action": "nonsense"}, follow=True)
    assert "Unknown action." in response.content.decode()


def test_live_board_offers_the_bell_only_while_it_has_not_rung(client, night):
    """A bunco at the head table rings the bell (docs/rules.md section 3.1): the host's
    board stops offering to ring it, and offers it again when the head table undoes the
    mis-tap that rang it."""
    client.login(username="host", password="bunco")
    live = reverse("play:live", args=[night.pk])
    bunco = tap(table(night, 1), 1, "bunco")
    assert round_board(night.rounds.get(number=1)).bell
    assert "Ring the bell" not in client.get(live).content.decode()
    entry_undo(table=table(night, 1), entry_id=bunco.pk)
    assert not round_board(night.rounds.get(number=1)).bell
    assert "Ring the bell" in client.get(live).content.decode()


def test_host_corrects_a_closed_round(client, night):
    play_round(night)
    client.login(username="host", password="bunco")
    url = reverse("play:table_fix", args=[night.pk, 1]) + "?round=1"
    assert client.get(url).status_code == 200
    client.post(url, {"action": "winner", "side": "1", "round": "1"})
    seats = night.rounds.get(number=1).seats.filter(table__number=1).order_by("number")
    assert [s.won for s in seats] == [False, True, False, True]
    response = client.post(
        url,
        {"action": "add", "round": "1", "seat": "1", "tap": "bunco", "nonce": "hostfix-0001"},
        follow=True,
    )
    assert "Saved." in response.content.decode()
    assert night.rounds.get(number=1).seats.get(table__number=1, number=1).buncos == 1


def test_standings_page_shows_ties_and_records_a_break(client, night):
    play_round(night)
    client.login(username="host", password="bunco")
    url = reverse("play:standings", args=[night.pk])
    html = client.get(url).content.decode()
    assert "Most wins" in html and "Tie:" in html
    from bunco_night.play.standings import night_standings

    prize = next(p for p in night_standings(night).prizes if p.tied)
    client.post(url, {"code": prize.code, "player": prize.candidates[0]})
    after = next(p for p in night_standings(night).prizes if p.code == prize.code)
    assert after.winner == prize.candidates[0] and after.broken_by_host


def test_links_page_shows_every_table_and_player_link_as_a_qr_code(client, night):
    client.login(username="host", password="bunco")
    html = client.get(reverse("play:links", args=[night.pk])).content.decode()
    for t in night.tables.all():
        assert f"http://testserver/t/{t.token}/" in html
    for a in night.attendances.all():
        assert f"http://testserver/p/{a.token}/" in html
    assert html.count('<svg class="qr"') == 3 + 12


def test_card_party_host_enters_each_tables_winner(client):
    """docs/rules.md section 9.1: "the host records each table's winner"."""
    night = make_night(make_group(rules="card_1904", regulars=9), sets=1)
    start_night(night)
    client.login(username="host", password="bunco")
    action = reverse("play:live_action", args=[night.pk])
    html = client.get(reverse("play:live", args=[night.pk])).content.decode()
    assert "Winner (fewest cards left)" in html
    response = post_tap(client, table(night), tap="points:1")
    assert response.json()["code"] == "card_game"
    for number, side in ((1, 0), (2, 2), (3, 1)):
        client.post(action, {"action": "winner", "table": number, "side": side})
    client.post(action, {"action": "close"})
    rnd = night.rounds.get(number=1)
    assert rnd.status == "closed"
    winners = [s.number for s in rnd.seats.filter(won=True).order_by("table__number")]
    assert winners == [1, 3, 2]


def test_set_winners_with_a_tie_broken_by_a_recorded_roll_off(client):
    """docs/rules.md section 7.1: "The winner of the Set is the player with the most 'W's",
    then most buncos, then a roll-off the host records."""
    from bunco_night.play.services import round_start
    from bunco_night.play.standings import night_standings

    night = make_night(make_group(regulars=4, substitutes=0, marks=(1, 2)), sets=2)
    start_night(night)
    for number, seat in enumerate([1, 2, 3, 3], start=1):
        if number > 1:
            round_start(night=night)
        play_round(night, winners=[seat])
    client.login(username="host", password="bunco")
    url = reverse("play:standings", args=[night.pk])
    html = client.get(url).content.decode()
    first, second = night_standings(night).sets
    assert first.tied and first.complete and len(first.level) == 2
    assert second.leaders == [p for s, p in second.rows if s.wins == 2]
    assert "Set winners" in html and "Who won the roll-off?" in html
    winner = first.level[1]
    client.post(url, {"code": first.code, "player": winner.pk})
    first = night_standings(night).sets[0]
    assert first.leaders == [winner] and first.rolled_off
    assert (
        f'{winner.name} <span class="muted">(won the roll-off' in client.get(url).content.decode()
    )
    room = client.get(reverse("play:room", args=[night.pk])).content.decode()
    assert f"Set 1 winner: <b>{winner.name}</b>" in room
    stranger = second.rows[-1][1]
    response = client.post(url, {"code": "set-2", "player": stranger.pk}, follow=True)
    assert "Pick one of the tied players." in response.content.decode()


def test_the_fuzzy_die_shows_only_where_the_group_plays_with_it(client, night):
    from bunco_night.groups.services import prizes_set

    client.login(username="host", password="bunco")
    pages = [
        reverse(name, args=[night.pk]) for name in ("play:standings", "play:live", "play:room")
    ]
    assert all("uzzy die" not in client.get(url).content.decode() for url in pages)
    prizes_set(group=night.group, prizes=[{"code": "fuzzy_die", "percent": 10}])
    # A night keeps the prizes it was planned with (docs/rules.md section 8.5).
    assert all("uzzy die" not in client.get(url).content.decode() for url in pages)
    night = make_night(night.group, date=dt.date(2027, 1, 2))
    start_night(night)
    pages = [
        reverse(name, args=[night.pk]) for name in ("play:standings", "play:live", "play:room")
    ]
    for url in pages:
        html = client.get(url).content.decode()
        assert "uzzy die" in html and "latest bunco" in html, url


def live_version(night):
    night.refresh_from_db()
    return f"{night.version}.{night.scores_version}"


def test_the_live_board_poll_re_renders_only_the_tables_that_changed(client, night):
    """While a round is played, a tap re-renders its own table on the host's board (and the
    bell, late entries and bunco facts), not every table; a new round re-renders it whole."""
    client.login(username="host", password="bunco")
    poll = reverse("play:live_state", args=[night.pk])
    shown = live_version(night)
    assert client.get(poll, {"v": shown}).status_code == 204
    post_tap(client, table(night, 2), tap="points:2")
    html = client.get(poll, {"v": shown}).content.decode()
    assert 'id="live-table-2"' in html and 'id="live-table-1"' not in html
    assert 'id="board"' not in html
    assert 'id="live-facts"' in html and 'id="live-status"' in html
    assert f"?v={live_version(night)}" in html  # the poller moves on to the new version
    assert "<b>2</b>" in html.split('id="live-table-2"')[1].split('id="live-status"')[0]
    # A poll from before both taps sees both tables; one from a newer version sees none.
    older = shown
    shown = live_version(night)
    post_tap(client, table(night, 1), tap="points:2")
    html = client.get(poll, {"v": older}).content.decode()
    assert 'id="live-table-1"' in html and 'id="live-table-2"' in html
    html = client.get(poll, {"v": shown}).content.decode()
    assert 'id="live-table-1"' in html and 'id="live-table-2"' not in html
    # Closing the round moves the night's version: the board comes whole.
    play_round(night)
    html = client.get(poll, {"v": live_version(night).split(".")[0] + ".0"}).content.decode()
    assert 'id="board"' in html and "Start round 2" in html


def test_the_room_screen_poll_re_renders_only_the_tables_that_changed(client, night):
    """The TV, like the live board: a tap re-renders its own table and the bunco count; a
    closed round, or a version the poll cannot read, re-renders the screen whole."""
    client.login(username="host", password="bunco")
    poll = reverse("play:room_state", args=[night.pk])
    shown = live_version(night)
    assert client.get(poll, {"v": shown}).status_code == 204
    post_tap(client, table(night, 2), tap="points:2")
    html = client.get(poll, {"v": shown}).content.decode()
    assert 'id="room-table-2"' in html and 'id="room-table-1"' not in html
    assert 'id="screen"' not in html and 'id="room-facts"' in html
    assert f"?v={live_version(night)}" in html  # the poller moves on to the new version
    assert "<b>2</b>" in html.split('id="room-table-2"')[1].split("</article>")[0]
    for v in (live_version(night).split(".")[0] + ".x", ""):
        html = client.get(poll, {"v": v}).content.decode()
        assert 'id="screen"' in html and 'id="room-table-1"' in html and 'id="room-poll"' in html
    play_round(night)
    html = client.get(poll, {"v": live_version(night).split(".")[0] + ".0"}).content.decode()
    assert 'id="screen"' in html and "Round 2: where to sit" in html


@pytest.mark.parametrize("v", ["", "x", "1", "1.", "1.x", ".5", "1.99999999999999999", "1.-1"])
def test_a_live_board_poll_with_a_version_it_cannot_read_gets_the_whole_board(client, night, v):
    client.login(username="host", password="bunco")
    response = client.get(reverse("play:live_state", args=[night.pk]), {"v": v})
    assert response.status_code == 200 and 'id="board"' in response.content.decode()


def test_the_room_screen_sends_the_standings_and_says_how_many_more_there_are(client, night):
    """The screen never scrolls: js/fit.js shows as many standings as fit its side column,
    and says how many more there are. The server sends every row (all 12 here), the "and
    N more" line hidden until some do not fit; a screen without scripts shows them all."""
    play_round(night)
    client.login(username="host", password="bunco")
    room = client.get(reverse("play:room", args=[night.pk])).content.decode()
    side = room[room.index('<div class="room-side"') :]
    assert side.count("<tr data-rank-row>") == 12
    assert (
        '<p class="room-note room-more" data-total="12" hidden>and <span data-more>0</span> more'
        in side
    )


def live_card(html: str, number: int) -> str:
    """The words of table ``number``'s card on the live board."""
    card = html[html.index(f'id="live-table-{number}"') :]
    card = card[: card.index('<p class="live-table-links"')]
    return " ".join(re.sub(r"<[^>]+>", " ", card.split(">", 1)[1]).split())


def test_the_finished_board_says_the_host_set_a_table_s_winner(client, night):
    """The last round: the bell rings, nobody at tables 2 and 3 has rolled, the host sets
    their winners with Correct and closes the round, which ends the night; then two taps
    from table 2's phone arrive, late (docs/rules.md section 3.5). The tables' scores are
    0-0 and, after the bell, nobody there rolled once: what the rules say of a table in
    play. The round is over, and its winner the host's: the board says so."""
    client.login(username="host", password="bunco")
    while current_round(night).number < night.total_rounds:
        play_round(night)
        round_start(night=night)
    rnd = current_round(night)
    ring_the_bell(night)
    for number in (2, 3):
        winner_set(rnd=rnd, table=table(night, number), side=1)
    waiting = reverse("play:live", args=[night.pk])
    card = live_card(client.get(waiting).content.decode(), 2)
    assert "✔ done" in card and "Winner set by the host" in card, card
    assert "Waiting for everyone to roll once" not in card, card
    assert round_close(rnd=rnd) is None
    night.refresh_from_db()
    assert night.is_over
    tap(table(night, 2), 1, "points", 1, round_number=rnd.number)
    tap(table(night, 2), 2, "points", 2, round_number=rnd.number)
    html = client.get(reverse("play:live", args=[night.pk])).content.decode()
    assert "2 late entries to decide" in html
    for number in (2, 3):
        card = live_card(html, number)
        assert "Waiting for everyone to roll once" not in card, card
        assert "Winner set by the host" in card, card
    assert "Winner set by the host" not in live_card(html, 1)  # won by its scores


@pytest.mark.parametrize(
    ("waited", "seconds"),
    [("90000", 90), ("", None), ("0", None), ("-5000", None), ("soon", None), ("9" * 12, 43200)],
)
def test_a_tap_says_how_long_it_waited_on_the_phone(client, night, waited, seconds):
    """The phone sends how long a tap waited on it (ms): the entry keeps when it was
    tapped (docs/rules.md section 3.5); nothing, a negative or a word keeps nothing; a
    wait past half a day is taken as half a day."""
    post_tap(client, table(night, 2), tap="points:1", waited=waited)
    entry = Entry.objects.get()
    if seconds is None:
        assert entry.tapped_at is None
    else:
        assert abs((entry.created - entry.tapped_at).total_seconds() - seconds) < 5
