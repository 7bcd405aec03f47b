"""Play services: entries, retries, the bell, closing, movement, corrections."""

import itertools
import threading

import pytest
from django.db import connection

from bunco_night.core.errors import ServiceError
from bunco_night.groups.services import player_add
from bunco_night.nights.models import Night, Round, Seat
from bunco_night.nights.services import seating_swap
from bunco_night.play.models import Entry, TablePlay
from bunco_night.play.services import (
    bell_ring,
    entry_record,
    entry_undo,
    prize_tiebreak_record,
    round_close,
    round_start,
    table_done,
    tiebreak_record,
    winner_set,
)
from bunco_night.play.standings import night_standings
from bunco_night.play.state import round_board
from bunco_night.rules.movement import next_seating
from tests.factories import make_group, make_night
from tests.play.helpers import nonce, play_round, start_night, tap, tap_result

pytestmark = pytest.mark.django_db


def tables(rnd):
    return [tv.table for tv in round_board(rnd).tables]


def test_running_score_is_the_sum_of_entries():
    """docs/rules.md section 6.1: a table's running score "is always the sum of its counting
    entries"."""
    night = make_night(make_group())
    rnd = start_night(night)
    t2 = tables(rnd)[1]
    tap(t2, 1, "points", 2)
    tap(t2, 1, "points", 1)
    tap(t2, 1, "miss")
    tap(t2, 2, "mini")
    e = tap(t2, 3, "points", 3)  # three of the mark: a bunco
    assert e.kind == "bunco" and e.points == 21
    assert round_board(rnd).table(t2.pk).scores == (24, 5)
    entry_undo(table=t2, entry_id=e.pk)
    assert round_board(rnd).table(t2.pk).scores == (3, 5)
    assert Entry.objects.filter(pk=e.pk, undone_at__isnull=False).exists()  # kept, undone


def test_a_change_at_a_table_moves_its_version_and_the_nights_scores_version_once():
    """What the host's screens and the phones' polls compare: the table's version moves by
    one and it keeps the night's scores version it moved to. On PostgreSQL one statement
    does both; the two updates SQLite runs are checked to do the same there too."""
    from bunco_night.play.services import changes

    night = make_night(make_group())
    rnd = start_night(night)
    t1, t2 = tables(rnd)[:2]

    def moved(table, step):
        night.refresh_from_db()
        before, version = night.scores_version, table.version
        step(table)
        night.refresh_from_db()
        table.refresh_from_db()
        assert night.scores_version == before + 1 and table.version == version + 1
        assert table.scores_mark == night.scores_version

    moved(t1, lambda t: changes._touch_table(rnd, t))
    moved(t2, lambda t: changes._touch_table(rnd, t))
    t1.refresh_from_db()
    assert t1.scores_mark < t2.scores_mark  # t1 is not marked by t2's change

    def two_updates(t):
        changes._NIGHT_SCORES_MOVE.run(rnd.night_id)
        with connection.cursor() as cursor:
            cursor.execute(changes._TABLE_MOVE_SQL, [rnd.night_id, t.pk])

    moved(t1, two_updates)


def stored_as_read(entry):
    """``entry``, as a write left it, is the row the ORM reads back, field for field."""
    fields = [f.attname for f in Entry._meta.concrete_fields]
    read = Entry.objects.get(pk=entry.pk)
    assert [getattr(entry, f) for f in fields] == [getattr(read, f) for f in fields]
    assert entry.created is not None and not entry._state.adding
    return read


def test_every_kind_of_write_stores_the_entry_it_answers_with_and_moves_the_versions():
    """A tap's entry is inserted in a statement written once (on PostgreSQL with the
    versions' update, where the tap moves no bell): each way stores what it answers."""
    night = make_night(make_group())
    rnd = start_night(night)
    t1, t2 = tables(rnd)[:2]

    def versions(table):
        night.refresh_from_db()
        table.refresh_from_db()
        return night.scores_version, table.version

    for table, kw in [
        (t2, {"kind": "points", "count": 2}),  # alone at its table: no bell to move
        (t2, {"kind": "miss"}),
        (t1, {"kind": "points", "count": 1}),  # the head table: may ring the bell
    ]:
        before = versions(table)
        done = tap_result(table, 2, **kw)
        entry = done.entry
        assert table.version == before[1] + 1  # the table in hand moved, as its row did:
        assert versions(table) == (before[0] + 1, before[1] + 1)
        assert stored_as_read(entry).roller_id == entry.roller_id is not None
        assert not entry.is_late and done.late_waiting is False
    tap(t1, 1, "bunco")  # rings the bell: t2's next tap after Done is late
    for seat in (1, 3, 4):  # everyone rolls once before Done
        assert not tap(t2, seat, "miss").is_late
    table_done(table=t2)
    done = tap_result(t2, 3, "points", count=1)
    late = done.entry
    assert late.is_late and done.late_waiting is True
    assert stored_as_read(late).late_at == late.late_at is not None


def test_a_host_s_correction_on_a_closed_round_stores_the_entry_it_answers_with():
    night = make_night(make_group())
    rnd = start_night(night)
    play_round(night)
    rnd.refresh_from_db()
    t2 = tables(rnd)[1]
    fixed = entry_record(table=t2, nonce=nonce(), seat=1, kind="bunco", rnd=rnd, by_host=True)
    assert stored_as_read(fixed.entry).by_host and fixed.late_waiting is None
    assert night_standings(night).buncos_rolled == 1  # the closed round's results follow


def test_a_correction_that_moves_no_winner_keeps_the_seats_swapped_by_hand():
    """docs/rules.md section 6.2: the next seating is made again from the corrected
    winners; with the same winners, the host's swap stays."""
    night = make_night(make_group())
    rnd = start_night(night)
    play_round(night)
    rnd.refresh_from_db()
    nxt = night.rounds.get(number=2)
    a, b = nxt.seats.filter(player__isnull=False).order_by("table__number", "number")[:2]
    seating_swap(seat_a=a, seat_b=b)
    swapped = list(nxt.seats.order_by("pk").values_list("player_id", flat=True))
    t2 = tables(rnd)[1]
    entry_record(table=t2, nonce=nonce(), seat=1, kind="miss", rnd=rnd, by_host=True)
    assert list(nxt.seats.order_by("pk").values_list("player_id", flat=True)) == swapped
    # A correction that changes a table's winner seats the next round again.
    loser = next(s for s in rnd.seats.filter(table=t2) if not s.won)
    while not Seat.objects.get(pk=loser.pk).won:
        entry_record(
            table=t2, nonce=nonce(), seat=loser.number, kind="bunco", rnd=rnd, by_host=True
        )
    assert list(nxt.seats.order_by("pk").values_list("player_id", flat=True)) != swapped


def test_a_tap_at_a_table_whose_seats_were_removed_by_hand_is_refused_with_a_message():
    """A play left without its seats (the admin is the only way) refuses taps plainly,
    whether the tap reads its round with the seats (alone at its table) or on its own."""
    night = make_night(make_group())
    rnd = start_night(night)
    for table in tables(rnd)[:2]:  # the head table's tap reads its round on its own
        rnd.seats.filter(table=table).delete()
        with pytest.raises(ServiceError) as caught:
            tap(table, 1, "points", 1, round_number=1)
        assert caught.value.code == "not_in_round"
    assert not Entry.objects.exists()


def test_a_repeated_nonce_is_stored_once():
    """A repeated submit (a retry on bad Wi-Fi, a double tap) is stored once."""
    night = make_night(make_group())
    rnd = start_night(night)
    t1 = tables(rnd)[0]
    n = nonce()
    first = entry_record(table=t1, nonce=n, seat=1, kind="points", count=2).entry
    again = entry_record(table=t1, nonce=n, seat=1, kind="points", count=2).entry
    assert first.pk == again.pk and Entry.objects.count() == 1
    with pytest.raises(ServiceError) as caught:
        entry_record(table=tables(rnd)[1], nonce=n, seat=1, kind="points", count=2)
    assert caught.value.code == "forged_nonce"


def up_front_lookup_finds_nothing(monkeypatch):
    """Where a tap's nonce is looked up before the write (SQLite), as if the stored tap
    was stored just after that lookup: each tap's first lookup finds nothing, the one
    after its write finds what is stored. (PostgreSQL looks it up only after the write:
    every retry goes that way there.)"""
    from bunco_night.play.services import taps

    if connection.vendor == "postgresql":
        return
    lookup, calls = taps._ENTRY_BY_NONCE.instance, itertools.count()
    monkeypatch.setattr(
        taps._ENTRY_BY_NONCE,
        "instance",
        lambda nonce: None if next(calls) % 2 == 0 else lookup(nonce),
    )


def test_a_retried_tap_refused_as_it_stands_now_is_answered_as_stored(monkeypatch):
    """A phone's retry of a stored tap is the stored tap, even where the write would now
    refuse it (the rules changed meanwhile, say): the nonce is looked up when the write
    is refused."""
    night = make_night(make_group(), sets=1)
    rnd = start_night(night)
    t1 = tables(rnd)[0]
    n = nonce()
    first = entry_record(table=t1, nonce=n, seat=1, kind="points", count=1, round_number=1).entry
    up_front_lookup_finds_nothing(monkeypatch)
    # A tap the write refuses, sent with the stored tap's nonce: a 9 is no score.
    again = entry_record(table=t1, nonce=n, seat=1, kind="points", count=9, round_number=1)
    assert again.entry.pk == first.pk and again.table_after is None
    assert Entry.objects.count() == 1
    with pytest.raises(ServiceError) as caught:
        entry_record(table=t1, nonce=nonce(), seat=1, kind="points", count=9, round_number=1)
    assert caught.value.code == "bad_count"


@pytest.mark.parametrize(
    "committed",
    # In the test's transaction the write is a savepoint; served, it is the whole
    # transaction, rolled back whole when the nonce turns out stored.
    [False, pytest.param(True, marks=pytest.mark.django_db(transaction=True))],
)
def test_a_nonce_stored_meanwhile_at_another_table_is_refused_too(monkeypatch, committed):
    """A retried nonce is looked up before the write on SQLite (after it, on PostgreSQL);
    one stored by another request in between is caught by the unique nonce, and is still
    only this table's to repeat."""
    assert connection.in_atomic_block is not committed

    night = make_night(make_group())
    rnd = start_night(night)
    t1, t2 = tables(rnd)[:2]
    n = nonce()
    first = entry_record(table=t1, nonce=n, seat=1, kind="points", count=2).entry
    up_front_lookup_finds_nothing(monkeypatch)
    again = entry_record(table=t1, nonce=n, seat=1, kind="points", count=2)
    assert again.entry.pk == first.pk and again.table_after is None
    with pytest.raises(ServiceError) as caught:
        entry_record(table=t2, nonce=n, seat=1, kind="points", count=2)
    assert caught.value.code == "forged_nonce"
    assert Entry.objects.count() == 1


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"seat": 5, "kind": "points", "count": 1}, "bad_seat"),
        ({"seat": 0, "kind": "points", "count": 1}, "bad_seat"),
        ({"seat": 1, "kind": "points", "count": 7}, "bad_count"),
        ({"seat": 1, "kind": "points", "count": -2}, "bad_count"),
        ({"seat": 1, "kind": "jackpot"}, "bad_kind"),
        ({"seat": 1, "kind": "low"}, "bad_kind"),  # house rules have mini, not low/high
        ({"seat": 1, "kind": "mark", "mark_code": "wipeout"}, "unknown_mark"),
        ({"seat": 1, "kind": "points", "count": 1, "nonce": "x"}, "bad_nonce"),
    ],
)
def test_bad_entries_change_nothing(kwargs, code):
    night = make_night(make_group())
    rnd = start_night(night)
    kwargs.setdefault("nonce", nonce())
    with pytest.raises(ServiceError) as caught:
        entry_record(table=tables(rnd)[0], **kwargs)
    assert caught.value.code == code
    assert Entry.objects.count() == 0


def test_group_mark_wipeout_resets_the_side():
    """docs/rules.md section 2.4: "reset the round score, which puts the side's score for this
    round back to 0 (for example a wipeout)"."""
    group = make_group(group_marks=())
    from bunco_night.groups.services import rules_update
    from bunco_night.rules.presets import GroupMark

    rules_update(
        group=group,
        changes={
            "group_marks": (
                GroupMark("wipeout", "Wipeout", effect="reset_round_score"),
                GroupMark("monte", "Monte Carlo"),
            )
        },
    )
    night = make_night(group)
    rnd = start_night(night)
    t = tables(rnd)[1]
    tap(t, 1, "points", 2)
    tap(t, 3, "mark", mark_code="monte")
    tap(t, 1, "mark", mark_code="wipeout")
    tap(t, 2, "points", 1)
    assert round_board(rnd).table(t.pk).scores == (0, 1)


def test_the_bell_head_table_and_everyone_rolls_once():
    """docs/rules.md section 3.1: head table controls."""
    night = make_night(make_group())
    rnd = start_night(night)
    t1, t2, t3 = tables(rnd)
    tap(t2, 1, "points", 2)
    with pytest.raises(ServiceError) as caught:
        table_done(table=t2)
    assert caught.value.code == "no_bell"
    for _ in range(11):
        tap(t1, 1, "points", 2)
    rnd.refresh_from_db()
    assert rnd.bell_at is not None and round_board(rnd).bell
    with pytest.raises(ServiceError) as caught:
        table_done(table=t2)
    assert caught.value.code == "everyone_rolls_once"
    for s in (2, 3, 4):
        tap(t2, s, "miss")
    table_done(table=t2)
    with pytest.raises(ServiceError) as caught:
        round_close(rnd=rnd)
    assert caught.value.code == "round_not_over"
    assert caught.value.message == (
        "Not every table is done: table 3. Wait for Done on its phone, or set its winner "
        "with Correct."
    )
    for s in (1, 2, 3, 4):
        tap(t3, s, "miss")
    table_done(table=t3)
    with pytest.raises(ServiceError) as caught:
        round_close(rnd=rnd)
    assert caught.value.code == "tie_needs_break"  # table 3 is 0-0
    assert caught.value.message == (
        "Table 3 is playing extra turns to break a tie: wait for them, or record who won."
    )
    tiebreak_record(table=t3, side=1)
    nxt = round_close(rnd=rnd)
    assert nxt.number == 2 and nxt.status == Round.Status.PENDING and nxt.mark == 2


def test_closing_too_soon_names_the_tables_left_in_words_for_one_or_many():
    night = make_night(make_group())
    rnd = start_night(night)
    t1, t2, t3 = tables(rnd)
    with pytest.raises(ServiceError) as caught:
        round_close(rnd=rnd)
    assert caught.value.message == (
        "Not every table is done: tables 1, 2 and 3. Wait for Done on their phones, or set "
        "their winners with Correct."
    )
    for _ in range(11):
        tap(t1, 1, "points", 2)
    for t in (t2, t3):
        for s in (1, 2, 3, 4):
            tap(t, s, "miss")
        table_done(table=t)
    with pytest.raises(ServiceError) as caught:
        round_close(rnd=rnd)
    assert caught.value.message == (
        "Tables 2 and 3 are playing extra turns to break a tie: wait for them, or record who won."
    )


def test_undoing_the_winning_entry_unrings_the_bell():
    night = make_night(make_group())
    rnd = start_night(night)
    t1 = tables(rnd)[0]
    last = None
    for _ in range(11):
        last = tap(t1, 1, "points", 2)
    entry_undo(table=t1, entry_id=last.pk)
    rnd.refresh_from_db()
    assert rnd.bell_at is None and not round_board(rnd).bell


def test_a_done_tapped_after_the_bell_goes_when_the_bell_is_taken_back():
    """docs/rules.md section 6.2: the round plays on, at every table."""
    night = make_night(make_group())
    rnd = start_night(night)
    t1, t2, _ = tables(rnd)
    last = None
    for _ in range(11):
        last = tap(t1, 1, "points", 2)
    for s in (1, 2, 3, 4):
        tap(t2, s, "miss")
    table_done(table=t2)
    version = Night.objects.get(pk=night.pk).version
    entry_undo(table=t1, entry_id=last.pk)
    assert not TablePlay.objects.filter(round=rnd, finished_turn=True).exists()
    assert Night.objects.get(pk=night.pk).version > version  # every phone redraws
    board = round_board(rnd)
    assert not board.bell and not board.table(t2.pk).outcome.done
    tap(t2, 1, "points", 1)  # counts: not a late entry
    assert Entry.objects.filter(table=t2, late_at__isnull=True, points=1).exists()
    # When the bell rings again, table 2 taps Done again.
    tap(t1, 1, "points", 2)
    assert round_board(rnd).bell and not round_board(rnd).table(t2.pk).outcome.done
    table_done(table=t2)
    assert TablePlay.objects.get(round=rnd, table=t2).finished_turn


def test_host_rings_the_bell():
    night = make_night(make_group())
    rnd = start_night(night)
    bell_ring(night=night)
    rnd.refresh_from_db()
    assert round_board(rnd).bell


def test_deluxe_bunco_ends_the_round_everywhere():
    """docs/rules.md section 3.2: "A true bunco ends the round everywhere"."""
    night = make_night(make_group(rules="deluxe", regulars=9))
    rnd = start_night(night)
    t1, t2, t3 = tables(rnd)
    tap(t1, 2, "points", 1)
    tap(t3, 2, "points", 2)
    tap(t2, 1, "bunco")
    view = round_board(rnd)
    assert view.bell and view.over
    nxt = round_close(rnd=rnd)
    assert nxt.number == 2


def test_late_entries_are_refused_and_the_host_can_correct():
    """Entries for a closed round are refused; the host can still correct the table."""
    night = make_night(make_group())
    rnd = start_night(night)
    nxt = play_round(night)
    t1 = tables(rnd)[0]
    with pytest.raises(ServiceError) as caught:
        entry_record(table=t1, nonce=nonce(), seat=1, kind="points", count=1)
    assert caught.value.code == "no_round"
    before = [(s.table_id, s.number, s.player_id) for s in nxt.seats.all()]
    # The host decides table 1 was won by the other team: the unplayed next seating follows.
    winner_set(rnd=rnd, table=t1, side=1)
    rnd.refresh_from_db()
    after = [(s.table_id, s.number, s.player_id) for s in nxt.seats.all()]
    assert before != after
    view = round_board(rnd)
    won = {s.number for s in view.tables[0].seats if s.won}
    assert won == {2, 4}
    # the engine agrees with the stored movement
    seating = tuple(tuple(s.player_id for s in tv.seats) for tv in view.tables)
    winners = [(2, 4)] + [(1, 3)] * 2
    expected = next_seating(night.rules_obj, seating, winners)
    stored = tuple(tuple(s.player_id for s in tv.seats) for tv in round_board(nxt).tables)
    assert stored == expected
    # a host entry on the closed round changes the standings
    entry_record(table=t1, nonce=nonce(), seat=1, kind="bunco", rnd=rnd, by_host=True)
    assert night_standings(night).buncos_rolled == 1


def test_a_whole_12_player_house_night_and_standings():
    group = make_group()
    night = make_night(group, sets=1)
    start_night(night)
    for _ in range(6):
        nxt = play_round(night, winners=[1, 2, 1])
        if nxt:
            round_start(night=night)
    night.refresh_from_db()
    assert night.status == Night.Status.FINISHED
    standings = night_standings(night)
    assert sum(s.wins for s in standings.standings) == 6 * 6  # six winners a round
    assert sum(s.wins + s.losses for s in standings.standings) == 12 * 6
    assert standings.rounds_closed == 6


def test_prize_ties_until_broken():
    group = make_group(regulars=4, substitutes=0)
    night = make_night(group, sets=1)
    start_night(night)
    play_round(night, winners=[1])
    standings = night_standings(night)
    most_wins = next(p for p in standings.prizes if p.code == "most_wins")
    assert most_wins.tied is False and most_wins.value == 1
    fewest = next(p for p in standings.prizes if p.code == "fewest_wins")
    assert fewest.tied and len(fewest.candidates) == 3
    chosen = standings.players[fewest.candidates[1]]
    prize_tiebreak_record(night=night, code="fewest_wins", player=chosen)
    fewest = next(p for p in night_standings(night).prizes if p.code == "fewest_wins")
    assert fewest.winner == chosen.pk and fewest.broken_by_host
    outsider = player_add(group=group, name="Outsider")
    with pytest.raises(ServiceError):
        prize_tiebreak_record(night=night, code="fewest_wins", player=outsider)


def test_ghost_bunco_counts_for_the_partner():
    """docs/rules.md section 5.5: "A bunco rolled for a ghost counts for the player who rolled
    it"."""
    from bunco_night.nights.services import attendance_set

    group = make_group(regulars=12, fill="ghosts")
    night = make_night(group, sets=1)
    attendance_set(attendance=night.attendances.first(), status="absent")
    rnd = start_night(night)
    view = round_board(rnd)
    tv = next(t for t in view.tables if any(s.player_id is None for s in t.seats))
    ghost = next(s for s in tv.seats if s.player_id is None)
    partner = tv.seats[(ghost.number + 1) % 4]
    e = tap(tv.table, ghost.number, "bunco")
    assert e.roller_id == partner.player_id


@pytest.mark.django_db(transaction=True)
def test_two_phones_at_once_both_count():
    """Two phones at the same table entering at the same moment both count."""
    night = make_night(make_group())
    rnd = start_night(night)
    t2 = tables(rnd)[1]
    barrier = threading.Barrier(2)
    errors = []

    def phone(seat):
        try:
            barrier.wait()
            for _ in range(5):
                tap(t2, seat, "points", 1)
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=phone, args=(s,)) for s in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert round_board(rnd).table(t2.pk).scores == (5, 5)


@pytest.mark.django_db(transaction=True)
def test_the_same_nonce_from_two_connections_is_stored_once():
    night = make_night(make_group())
    rnd = start_night(night)
    t2 = tables(rnd)[1]
    n = nonce()
    barrier = threading.Barrier(2)
    results = []

    def phone():
        try:
            barrier.wait()
            results.append(entry_record(table=t2, nonce=n, seat=1, kind="points", count=2).entry.pk)
        finally:
            connection.close()

    threads = [threading.Thread(target=phone) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(results)) == 1 and Entry.objects.filter(nonce=n).count() == 1


def test_round_start_needs_seating_and_one_round_at_a_time():
    night = make_night(make_group())
    with pytest.raises(ServiceError) as caught:
        round_start(night=night)
    assert caught.value.code == "no_seating"
    start_night(night)
    with pytest.raises(ServiceError) as caught:
        round_start(night=night)
    assert caught.value.code == "round_in_play"


def test_enter_the_dice_and_the_engine_scores_them():
    """Entering the three dice: docs/rules.md section 2.3, scored by section 2.1."""
    night = make_night(make_group())
    rnd = start_night(night)  # round 1: the mark is 1
    t = tables(rnd)[1]
    assert tap(t, 1, "dice", dice=[1, 4, 1]).points == 2
    assert tap(t, 1, "dice", dice=[5, 5, 5]).kind == "mini"
    assert tap(t, 1, "dice", dice=[1, 1, 1]).kind == "bunco"
    assert tap(t, 1, "dice", dice=[2, 3, 4]).kind == "miss"
    with pytest.raises(ServiceError) as caught:
        tap(t, 1, "dice", dice=[0, 9, 1])
    assert caught.value.code == "bad_dice"


def test_fewer_sets_than_played_is_refused_and_a_shorter_night_ends():
    """A host shortening the night cannot drop rounds already played (review finding:
    "Round 8 of 6")."""
    import datetime as dt

    from bunco_night.nights.services import night_update

    group = make_group()
    night = make_night(group, sets=2)
    start_night(night)
    for _ in range(6):
        play_round(night)
        round_start(night=night)
    # Round 7 is being played: one set is too few now.
    night.refresh_from_db()
    with pytest.raises(ServiceError) as caught:
        night_update(night=night, date=dt.date(2026, 12, 5), time=None, place="", sets=1)
    assert caught.value.code == "sets_below_played"
    night.refresh_from_db()
    assert night.sets == 2


def test_shortening_after_the_last_kept_round_ends_the_night():
    from bunco_night.nights.services import night_update

    group = make_group()
    night = make_night(group, sets=2)
    start_night(night)
    for i in range(6):
        play_round(night)
        if i < 5:
            round_start(night=night)
    night.refresh_from_db()
    assert night.rounds.filter(number=7, status="pending").exists()
    night_update(night=night, date=night.date, time=None, place="", sets=1)
    night.refresh_from_db()
    assert night.status == Night.Status.FINISHED and not night.rounds.filter(number=7).exists()
    with pytest.raises(ServiceError):
        round_start(night=night)


def test_a_bunco_added_to_an_earlier_round_is_not_the_last_bunco():
    """docs/rules.md section 6.3: buncos are in the order they were rolled, round first."""
    group = make_group(regulars=12, substitutes=0)
    night = make_night(group, sets=1)
    start_night(night)
    play_round(night)
    round_start(night=night)
    round_two = night.rounds.get(number=2)
    t2 = round_board(round_two).tables[1].table
    rolled = tap(t2, 1, "bunco")
    round_one = night.rounds.get(number=1)
    t3 = round_board(round_one).tables[2].table
    entry_record(table=t3, nonce=nonce(), seat=2, kind="bunco", by_host=True, rnd=round_one)
    standings = night_standings(night)
    assert standings.buncos_rolled == 2
    assert standings.last_bunco.pk == rolled.pk
    assert standings.fuzzy_die == rolled.roller
