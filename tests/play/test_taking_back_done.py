"""A table takes back a mis-tapped Done, or a mis-tapped "Extra turns done", while the
round is in play (docs/rules.md section 6.2), a tie's extra turns (section 3.4) included."""

import pytest
from django.urls import reverse

from bunco_night.core.errors import ServiceError
from bunco_night.play.models import Entry
from bunco_night.play.services import bell_ring, entry_undo, extra_turns_done, table_done
from bunco_night.play.state import round_board
from tests.factories import make_group, make_night
from tests.play.helpers import start_night, tap

pytestmark = pytest.mark.django_db


@pytest.fixture
def tied():
    """House rules, 12 players: the host rang the bell, table 2 tapped Done at 0-0 (a miss
    each), and plays a tie's extra turns."""
    night = make_night(make_group(regulars=12), sets=1)
    rnd = start_night(night)
    t2 = night.tables.get(number=2)
    for seat in range(1, 5):
        tap(t2, seat, "miss")
    bell_ring(night=night)
    table_done(table=t2)
    assert here(rnd, t2).outcome.in_extra_turns
    return rnd, t2


def here(rnd, table):
    rnd.refresh_from_db()
    return round_board(rnd).table(table.pk)


def refused(code, service, **kwargs):
    with pytest.raises(ServiceError) as caught:
        service(**kwargs)
    assert caught.value.code == code
    return caught.value.message


def test_done_tapped_before_the_turn_ended_is_taken_back_before_the_extra_turns(tied):
    rnd, t2 = tied
    table_done(table=t2, done=False)
    now = here(rnd, t2)
    assert not now.play.finished_turn and not now.outcome.done
    assert not now.outcome.in_extra_turns
    # The turn goes on: its rolls are the round's, not late and not extra turns.
    roll = tap(t2, 2, "points", 2)
    assert not roll.is_late and roll.extra_pass == 0
    table_done(table=t2)
    assert here(rnd, t2).winner_side == 1


def test_done_is_taken_back_only_once_the_extra_turns_entered_are_undone(tied):
    rnd, t2 = tied
    extra = tap(t2, 1, "points", 1)
    assert extra.extra_pass == 1
    message = refused("extra_turns_entered", table_done, table=t2, done=False)
    assert "Undo the extra turns" in message
    assert here(rnd, t2).play.finished_turn
    entry_undo(table=t2, entry_id=extra.pk)
    table_done(table=t2, done=False)
    assert not here(rnd, t2).play.finished_turn


def test_extra_turns_done_tapped_too_soon_is_taken_back_and_the_pass_plays_on(tied):
    rnd, t2 = tied
    first = tap(t2, 1, "points", 1)  # seat 1's extra turn; seats 2 to 4 still to roll
    extra_turns_done(table=t2)
    assert here(rnd, t2).winner_side == 0
    # The Done before the extra turns is not what was mis-tapped: it is not taken back.
    refused("extra_turns_finished", table_done, table=t2, done=False)
    extra_turns_done(table=t2, done=False)
    now = here(rnd, t2)
    assert now.outcome.in_extra_turns and now.winner_side is None
    assert now.play.extra_passes == 0 and now.play.finished_turn
    # The pass plays on: its turns count in it, and the table may undo them again.
    second = tap(t2, 2, "points", 2)
    assert not second.is_late and second.extra_pass == 1
    entry_undo(table=t2, entry_id=first.pk)
    tap(t2, 3, "miss")
    tap(t2, 4, "miss")
    extra_turns_done(table=t2)
    assert here(rnd, t2).winner_side == 1
    assert here(rnd, t2).scores == (0, 2)


def test_extra_turns_done_is_taken_back_to_its_pass_until_the_next_pass_has_a_turn(tied):
    rnd, t2 = tied
    tap(t2, 1, "points", 1)
    tap(t2, 2, "points", 1)
    extra_turns_done(table=t2)  # still tied, 1-1: a second pass
    assert here(rnd, t2).outcome.extra_passes == 1
    second = tap(t2, 3, "points", 2)
    assert second.extra_pass == 2
    refused("extra_turns_entered", extra_turns_done, table=t2, done=False)
    entry_undo(table=t2, entry_id=second.pk)
    extra_turns_done(table=t2, done=False)  # back in the first pass
    assert here(rnd, t2).play.extra_passes == 0
    assert tap(t2, 3, "points", 2).extra_pass == 1
    refused("no_extra_turns", extra_turns_done, table=t2, done=False)  # nothing to take back


def test_taps_sent_after_extra_turns_done_stay_late_when_it_is_taken_back(tied):
    rnd, t2 = tied
    tap(t2, 1, "points", 1)
    extra_turns_done(table=t2)
    late = tap(t2, 2, "points", 2)
    assert late.is_late
    extra_turns_done(table=t2, done=False)
    assert Entry.objects.get(pk=late.pk).is_late
    assert here(rnd, t2).scores == (1, 0)


def test_the_phone_offers_the_undo_that_fits_each_state(client, tied):
    """What the table's page offers (its ``recent`` box): Undo Done until an extra turn
    is entered; Undo Extra turns done once it is tapped, instead of Undo Done."""
    rnd, t2 = tied
    url = reverse("play:table", args=[t2.token])

    def buttons():
        return client.get(url).content.decode()

    undo_done, undo_extra = "Undo Done (we weren't finished)", "Undo Extra turns done"
    page = buttons()
    assert "Extra turns done ✔" in page and undo_done in page and undo_extra not in page
    extra = tap(t2, 1, "points", 1)
    page = buttons()
    assert undo_done not in page and undo_extra not in page
    assert f'name="entry" value="{extra.pk}"' in page  # the extra turn's own Undo
    extra_turns_done(table=t2)
    page = buttons()
    assert undo_extra in page and undo_done not in page and "Extra turns done ✔" not in page
    answer = client.post(
        reverse("play:table_extra_turns", args=[t2.token]),
        {"done": "0"},
        HTTP_ACCEPT="application/json",
    )
    assert answer.json() == {"ok": True, "late": False}
    assert here(rnd, t2).outcome.in_extra_turns
    assert "Extra turns done ✔" in buttons()


def test_a_roll_off_winner_goes_with_the_done_taken_back():
    """The roll-off settled a tie at Done; Done taken back, the same tie at the next Done
    is a new one, its winner not yet known (docs/rules.md section 6.2)."""
    from bunco_night.play.services import tiebreak_record

    night = make_night(make_group(regulars=12, tie_break="roll_off"), sets=1)
    rnd = start_night(night)
    t2 = night.tables.get(number=2)
    for seat in range(1, 5):
        tap(t2, seat, "miss")
    bell_ring(night=night)
    table_done(table=t2)
    tiebreak_record(table=t2, side=1)
    assert here(rnd, t2).winner_side == 1
    table_done(table=t2, done=False)
    assert here(rnd, t2).winner_side is None
    table_done(table=t2)  # 0-0 again
    again = here(rnd, t2)
    assert again.outcome.needs_tiebreak and again.winner_side is None


def test_a_repeated_extra_turns_done_or_its_undo_counts_once(client, tied):
    """A double tap, or a send retried after a lost answer, names the passes the phone saw."""
    rnd, t2 = tied
    url = reverse("play:table_extra_turns", args=[t2.token])

    def twice(**fields):
        for _ in range(2):
            response = client.post(url, fields, HTTP_ACCEPT="application/json")
            assert response.status_code == 200

    tap(t2, 1, "points", 1)
    tap(t2, 2, "points", 1)
    page = client.get(reverse("play:table", args=[t2.token])).content.decode()
    assert 'name="pass" value="0"' in page
    twice(**{"pass": "0"})  # 1-1: pass 2, once
    assert here(rnd, t2).play.extra_passes == 1
    tap(t2, 3, "points", 1)
    tap(t2, 4, "points", 1)
    twice(**{"pass": "1"})  # 2-2: pass 3, once
    assert here(rnd, t2).play.extra_passes == 2
    twice(**{"done": "0", "pass": "2"})  # taken back once: pass 2 plays on
    assert here(rnd, t2).play.extra_passes == 1


def test_in_a_later_pass_only_its_own_turns_are_undone_at_the_table(client, tied):
    """docs/rules.md section 6.2: an earlier pass's turns decided that pass; they can be
    undone again only once the table takes back its Extra turns done."""
    rnd, t2 = tied
    first = tap(t2, 1, "points", 1)
    tap(t2, 2, "points", 1)
    extra_turns_done(table=t2)  # 1-1: pass 2
    page = client.get(reverse("play:table", args=[t2.token])).content.decode()
    assert f'name="entry" value="{first.pk}"' not in page
    message = refused("round_closed", entry_undo, table=t2, entry_id=first.pk)
    assert message.startswith("That turn was in an earlier pass of extra turns")
    second = tap(t2, 3, "points", 1)
    page = client.get(reverse("play:table", args=[t2.token])).content.decode()
    assert f'name="entry" value="{second.pk}"' in page
    entry_undo(table=t2, entry_id=second.pk)
    extra_turns_done(table=t2, done=False)  # back in pass 1: its turns are undone again
    entry_undo(table=t2, entry_id=first.pk)
    assert here(rnd, t2).scores == (0, 1)
