"""A table's board kept for the next phones' polls (bunco_night/play/speed/boards.py).

The first render of a table's new board (a tap's answer or a poll's) is kept with the
version it claims; a poll from htmx at an older version gets it from the middleware.
It must always be the board the view would draw at that moment.
"""

import itertools
import json
import re
from contextlib import suppress
from unittest.mock import patch

import pytest
from django.db import connection
from django.template.loader import render_to_string
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bunco_night.core.errors import ServiceError
from bunco_night.groups.services import player_update
from bunco_night.nights.models import Table
from bunco_night.nights.selectors import current_round
from bunco_night.play import live, pages, state
from bunco_night.play.models import Board, Entry
from bunco_night.play.services import (
    bell_ring,
    entry_undo,
    round_close,
    round_start,
    table_done,
    table_link_renew,
)
from bunco_night.play.speed import boards
from bunco_night.play.speed.boards import TEMPLATE, build
from bunco_night.rules.rounds import TableState
from tests.factories import make_group, make_night, make_user
from tests.play.helpers import poll_without_view, start_night, tap
from tests.search import examples

pytestmark = pytest.mark.django_db


@pytest.fixture
def night():
    night = make_night(make_group(), sets=1)
    start_night(night)
    return night


def version(t: Table) -> str:
    t = Table.objects.select_related("night").get(pk=t.pk)
    return f"{t.night.version}.{t.version}"


def post_tap(client, t, tap="points:1", seat="1"):
    nonce = f"kb{Entry.objects.count():09d}x"
    return client.post(
        reverse("play:table_entry", args=[t.token]),
        {"nonce": nonce, "seat": seat, "tap": tap, "round": "1"},
        HTTP_ACCEPT="application/json",
    )


def fresh_board(t: Table) -> str:
    """What the view would draw for ``t`` now, without keeping it."""
    t = Table.objects.select_related("night__group").get(pk=t.pk)
    return render_to_string(TEMPLATE, {"page": pages.table_page(t), "token": t.token})


def test_a_tap_keeps_its_board_and_the_other_phones_get_it_without_the_view(client, night):
    t = night.tables.get(number=2)
    before = version(t)
    board = post_tap(client, t).json()["board"]
    response = poll_without_view(t, before)
    assert response.status_code == 200
    assert response.content.decode() == board == fresh_board(t)
    assert f"?v={version(t)}" in board
    assert "no-store" in response.headers["Cache-Control"]
    assert response.cookies == {} and "Set-Cookie" not in response.headers
    # At the board's own version the poll is unchanged, as before.
    assert poll_without_view(t, version(t)).status_code == 204


def test_a_poll_keeps_the_board_it_drew(client, night):
    t = night.tables.get(number=2)
    before = version(t)
    tap(t, 1, "points", 1)  # through the service: nothing kept
    assert poll_without_view(t, before) is None
    drawn = client.get(reverse("play:table_state", args=[t.token]), {"v": before})
    assert drawn.status_code == 200
    assert poll_without_view(t, before).content == drawn.content
    assert Board.objects.get(table=t).version == version(t)


def test_a_kept_board_is_not_sent_once_the_table_or_the_night_moved_on(client, night):
    t = night.tables.get(number=2)
    before = version(t)
    post_tap(client, t)
    kept = Board.objects.get(table=t)
    tap(t, 2, "points", 2)  # the table moves on; its kept board is older
    assert poll_without_view(t, before) is None
    assert Board.objects.get(table=t).version == kept.version != version(t)
    response = client.get(reverse("play:table_state", args=[t.token]), {"v": before})
    assert response.content.decode() == fresh_board(t) != kept.html
    # The host rings the bell: the night's version moves, every kept board is stale.
    post_tap(client, t)
    bell_ring(night=night)
    assert poll_without_view(t, before) is None
    assert "BELL!" in fresh_board(t)


def test_a_kept_board_goes_only_to_htmx(client, night):
    t = night.tables.get(number=2)
    before = version(t)
    post_tap(client, t)
    assert poll_without_view(t, before, htmx=False) is None
    assert poll_without_view(t, before).status_code == 200


def test_a_timed_round_s_board_is_not_kept(client):
    group = make_group(regulars=12, substitutes=0, round_minutes=10)
    night = make_night(group, sets=1)
    start_night(night)
    t = night.tables.get(number=2)
    assert post_tap(client, t).json()["ok"]
    assert not Board.objects.filter(table=t).exists()
    client.get(reverse("play:table_state", args=[t.token]), {"v": "0.0"})
    assert not Board.objects.filter(table=t).exists()


def test_a_renamed_player_s_kept_board_is_not_sent(client, night):
    t = night.tables.get(number=2)
    before = version(t)
    board = post_tap(client, t).json()["board"]
    seat = pages.table_page(Table.objects.get(pk=t.pk)).here.seats[0]
    old_name = seat.player.name
    assert old_name in board
    player_update(player=seat.player, name="Zelda Renamed")
    assert poll_without_view(t, before) is None
    assert "Zelda Renamed" in fresh_board(t) and old_name not in fresh_board(t)


def test_a_renewed_link_never_gets_a_board_drawn_for_the_old_link(client, night):
    t = night.tables.get(number=2)
    before = version(t)
    post_tap(client, t)
    old_token = t.token
    renewed = table_link_renew(table=t)
    assert poll_without_view(renewed, before) is None
    drawn = client.get(reverse("play:table_state", args=[renewed.token]), {"v": before})
    assert renewed.token in drawn.content.decode()
    assert old_token not in drawn.content.decode()


def test_a_board_kept_by_other_code_is_not_sent(client, night):
    t = night.tables.get(number=2)
    before = version(t)
    post_tap(client, t)
    Board.objects.filter(table=t).update(build="an-older-build")
    assert poll_without_view(t, before) is None
    client.get(reverse("play:table_state", args=[t.token]), {"v": before})
    assert Board.objects.get(table=t).build == build()
    assert poll_without_view(t, before).status_code == 200


def test_a_board_the_database_will_not_keep_leaves_the_answer_whole(client, night, monkeypatch):
    t = night.tables.get(number=2)
    monkeypatch.setattr(boards, "_upsert_sql", lambda: "INSERT INTO no_such_table VALUES (%s)")
    response = post_tap(client, t)
    assert response.status_code == 200 and response.json()["board"]
    assert Entry.objects.filter(table=t).count() == 1
    drawn = client.get(reverse("play:table_state", args=[t.token]), {"v": "0.0"})
    assert drawn.status_code == 200 and not Board.objects.filter(table=t).exists()


_examples = itertools.count()

ACTIONS = st.lists(
    st.tuples(
        st.sampled_from(
            ["tap", "tap_unseen", "undo", "poll", "bell", "rename", "renew", "close", "done"]
        ),
        st.integers(1, 3),  # the table
        st.sampled_from(["points:1", "points:3", "miss", "bunco", "mini"]),
    ),
    min_size=1,
    max_size=12,
)


def act(client, night, action: str, number: int, what: str) -> None:
    """One of ``ACTIONS`` on ``night``, as a phone or the host does it."""
    t = night.tables.get(number=number)
    rnd = current_round(night)
    if action == "tap":
        post_tap(client, t, tap=what, seat=str(number))
    elif action == "tap_unseen" and not rnd.is_pending:
        kind, _, count = what.partition(":")
        tap(t, 1, kind, int(count or 0), rnd=rnd, by_host=True)
    elif action == "undo":
        last = Entry.objects.filter(table=t, undone_at=None).order_by("pk").last()
        if last is not None:
            # In a closed round, an undo that leaves a table without a winner is refused.
            with suppress(ServiceError):
                entry_undo(table=t, entry_id=last.pk, by_host=True)
    elif action == "poll":
        client.get(reverse("play:table_state", args=[t.token]), {"v": "0.0"})
    elif action == "bell" and rnd.is_playing and not rnd.bell_rang:
        bell_ring(night=night)
    elif action == "rename":
        player = night.group.players.order_by("pk")[number]
        player_update(player=player, name=f"{player.name[:20]} {what[:4]}")
    elif action == "renew":
        table_link_renew(table=t)
    elif action == "done" and rnd.is_playing:
        everyone_rolls(t, rnd)
        with suppress(ServiceError):  # a table already done, or in extra turns
            table_done(table=t)
    elif action == "close" and rnd.is_playing:
        # As a host ends a round: the bell, each table's last rolls (seat 1 scores one
        # more, so most tables have a winner) and Done, then the close and the next round.
        if not rnd.bell_rang:
            bell_ring(night=night)
        for other in night.tables.all():
            everyone_rolls(other, rnd, first="points")
            with suppress(ServiceError):
                table_done(table=other)
        try:
            round_close(rnd=rnd)
        except ServiceError:
            pass  # a tie waits for its extra turns or roll-off: the host is told so
        else:
            nxt = current_round(night)
            if nxt is not None and nxt.is_pending:
                round_start(night=night)


def everyone_rolls(t: Table, rnd, first: str = "miss") -> None:
    """Every seat at ``t`` rolls once (the host enters it), seat 1 ``first``."""
    for seat in range(1, 5):
        with suppress(ServiceError):  # a smaller table has fewer seats
            tap(
                t,
                seat,
                first if seat == 1 else "miss",
                1 if first == "points" else 0,
                rnd=rnd,
                by_host=True,
            )


@settings(
    max_examples=examples(25),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(actions=ACTIONS)
def test_whatever_happens_a_kept_board_sent_is_the_board_drawn_afresh(client, actions):
    """Taps answered with their board, taps no phone saw (the host's), undos, polls that
    draw and keep, the host's bell, a player renamed, a table's link renewed, a table's
    Done, the round closed (the bell, every table's last rolls and Done) and the next
    started, in any order, on a night of its own: whenever the middleware sends a kept
    board, it is what the view would draw."""
    examples = next(_examples)
    night = make_night(make_group(user=make_user(f"host{examples}"), name=f"G{examples}"), sets=1)
    start_night(night)
    for action, number, what in actions:
        act(client, night, action, number, what)
        for other in night.tables.all():
            response = poll_without_view(other, "0.0")
            if response is not None:
                assert response.content.decode() == fresh_board(other), (action, number, what)


# The host's screens: a tap keeps its table as the live board and the room screen draw
# it, and their polls send it as kept.

SCREEN_TABLE = {"live": r'<div id="live-table-', "room": r'<article id="room-table-'}
SCREEN_AFTER = {"live": '<div id="live-status"', "room": '<p id="room-facts"'}


def screen_poll(client, night, screen: str, since: str) -> str:
    return client.get(
        reverse(f"play:{screen}_state", args=[night.pk]), {"v": since}
    ).content.decode()


def screen_parts(html: str, screen: str) -> tuple[str, list[str], str]:
    """A screen's poll answer as what comes before its tables, its tables in any order
    (the drawn ones, then the kept ones), and what comes after; the white space between
    them and each form's CSRF token (masked anew at each drawing) left out."""
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)
    head, *tables = html.split(SCREEN_TABLE[screen])
    tail = ""
    if tables:
        tables[-1], after, tail = tables[-1].partition(SCREEN_AFTER[screen])
        tail = after + tail
    return head.strip(), sorted(t.strip() for t in tables), tail.strip()


def test_a_tap_keeps_its_table_as_the_host_s_screens_draw_it(client, night):
    client.login(username="host", password="bunco")
    night.refresh_from_db()
    since = f"{night.version}.{night.scores_version}"
    for number in (2, 3):
        post_tap(client, night.tables.get(number=number), tap="points:2", seat="2")
    night.refresh_from_db()
    for screen in ("live", "room"):
        update = live.board_update(night, since, screen)
        assert update.tables == [] and len(update.kept) == 2  # neither read nor drawn again
        kept = screen_poll(client, night, screen, since)
        head, tables, tail = screen_parts(kept, screen)
        assert [t[:2] for t in tables] == ['2"', '3"'] and "<b>2</b>" in tables[0]
        # Drawn with another bell than the room's now (a belt and braces: a change of the
        # bell moves the night's version, and so every kept board's): drawn again.
        Board.objects.filter(table__number=3).update(bell=True)
        update = live.board_update(night, since, screen)
        assert [tr.table.number for tr in update.tables] == [3] and len(update.kept) == 1
        assert screen_parts(screen_poll(client, night, screen, since), screen) == (
            head,
            tables,
            tail,
        )
        Board.objects.filter(table__number=3).update(bell=False)
        Board.objects.filter(table__number=2).update(**{screen: ""})  # one kept, one drawn
        assert [tr.table.number for tr in live.board_update(night, since, screen).tables] == [2]
        assert screen_parts(screen_poll(client, night, screen, since), screen) == (
            head,
            tables,
            tail,
        )
        Board.objects.update(**{screen: ""})  # both drawn
        assert screen_parts(screen_poll(client, night, screen, since), screen) == (
            head,
            tables,
            tail,
        )


@settings(
    max_examples=examples(25),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(actions=ACTIONS, seen=st.lists(st.booleans(), min_size=12, max_size=12))
def test_whatever_happens_the_screens_send_a_changed_table_as_drawn_afresh(client, actions, seen):
    """The same actions as for the phones' kept boards: whenever a round is in play, the
    live board's and the room screen's polls (from the round's start, and from the version
    they last showed when ``seen``) send each changed table, the bell and whether every
    table is done as the poll would draw them with nothing kept (no drawing, no state)."""
    examples = next(_examples)
    user = make_user(f"screens{examples}")
    night = make_night(make_group(user=user, name=f"S{examples}"), sets=1)
    start_night(night)
    client.force_login(user)
    shown = {}
    for (action, number, what), step_seen in zip(actions, seen, strict=False):
        act(client, night, action, number, what)
        night.refresh_from_db()
        if not current_round(night).is_playing:
            continue
        for screen in ("live", "room"):
            since = shown.get(screen) if step_seen else None
            since = since or f"{night.version}.0"
            answer = screen_poll(client, night, screen, since)
            with (
                patch.object(live, "kept_screens", lambda *args: {}),
                patch.object(state, "kept_states", lambda *args: {}),
            ):
                fresh = screen_poll(client, night, screen, since)
            assert screen_parts(answer, screen) == screen_parts(fresh, screen), (action, screen)
            shown[screen] = f"{night.version}.{night.scores_version}"


def test_after_the_bell_the_screens_send_tables_as_kept(client, night):
    client.login(username="host", password="bunco")
    bell_ring(night=night)
    night.refresh_from_db()
    since = f"{night.version}.{night.scores_version}"
    post_tap(client, night.tables.get(number=2), tap="points:1", seat="2")
    assert Board.objects.get(table__number=2).bell
    night.refresh_from_db()
    for screen in ("live", "room"):
        update = live.board_update(night, since, screen)
        assert update.bell and update.tables == [] and len(update.kept) == 1


def test_the_screens_decide_from_the_states_the_taps_kept(client, night):
    """The room's bell and "every table is done" come from every table: a table whose
    state is kept at its version now is not read again; the others are."""
    client.login(username="host", password="bunco")
    rnd = current_round(night)
    tables = list(night.tables.order_by("number"))
    for t in tables:
        post_tap(client, t, tap="points:2", seat="2")
    kept = Board.objects.get(table=tables[1])
    full = state.round_board(rnd)
    assert TableState.from_data(json.loads(kept.state)) == full.table(tables[1].pk).state
    read = []

    def scoring_entries(entries, *args, **kwargs):
        read.append(sorted(set(entries.values_list("table_id", flat=True))))
        return real_scoring_entries(entries, *args, **kwargs)

    real_scoring_entries = state._scoring_entries
    night.refresh_from_db()
    rnd = current_round(night)
    with patch.object(state, "_scoring_entries", scoring_entries):
        board = state.screen_board(rnd, [tables[1].pk])
        assert read == []  # every state was kept at its version now
        assert (board.bell, board.over, board.table(tables[1].pk).state) == (
            full.bell,
            full.over,
            full.table(tables[1].pk).state,
        )
        tap(tables[2], 1, "points", 1, rnd=rnd, by_host=True)  # no phone saw it: not kept
        rnd.refresh_from_db()
        board = state.screen_board(rnd, [tables[2].pk])
        assert read == [[tables[2].pk]]
        assert board.table(tables[2].pk).state == state.round_board(rnd).table(tables[2].pk).state
        Board.objects.update(build="older")  # kept by other code: read again, every table
        state.screen_board(rnd, [tables[2].pk])
        assert read[-1] == sorted(t.pk for t in tables)


def test_code_from_before_the_screens_keeps_its_boards(night):
    # A machine not yet upgraded keeps boards as it did: the new columns have defaults
    # in the database.
    t = night.tables.get(number=2)
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO play_board (table_id, version, build, html) VALUES (%s, %s, %s, %s)",
            [t.pk, "1.1", "older", "<div>board</div>"],
        )
    kept = Board.objects.get(table=t)
    assert (kept.html, kept.live, kept.room, kept.bell, kept.state) == (
        "<div>board</div>",
        "",
        "",
        False,
        "",
    )


def test_a_card_party_s_tables_are_not_kept_for_the_screens(client):
    # Its tables on the live board carry a form with the host's CSRF token.
    night = make_night(make_group(rules="card_1904", regulars=9), sets=1)
    start_night(night)
    t = night.tables.get(number=1)
    assert pages.table_page(t).status == pages.TableStatus.PLAYING
    client.get(reverse("play:table_state", args=[t.token]), {"v": "0.0"})
    kept = Board.objects.get(table=t)
    assert kept.html and kept.live == kept.room == ""


@pytest.mark.skipif(connection.vendor != "postgresql", reason="an unlogged table is PostgreSQL's")
def test_on_postgresql_the_kept_boards_write_no_wal(night):
    # A copy, never a record: emptied after a crash, rendered again by the next poll.
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relpersistence FROM pg_class WHERE oid = %s::regclass",
            [Board._meta.db_table],
        )
        assert cursor.fetchone() == ("u",)
    table = night.tables.first()
    boards.keep(table.pk, "1.1", "<div>board</div>")
    assert Board.objects.get(table=table).html == "<div>board</div>"
