"""The host puts back an entry that was undone by mistake (docs/rules.md section 6.2)."""

import re
import threading

import pytest
from django.db import connection
from django.urls import reverse

from bunco_night.core.errors import ServiceError
from bunco_night.nights.models import Night, Seat, Table
from bunco_night.nights.selectors import current_round
from bunco_night.play.models import Entry
from bunco_night.play.services import EntryChanged, entry_put_back, entry_undo
from bunco_night.play.state import round_board
from tests.factories import make_group, make_night
from tests.locks import held_elsewhere, host_waiting
from tests.play.helpers import play_round, start_night, tap

pytestmark = pytest.mark.django_db


@pytest.fixture
def night():
    night = make_night(make_group(), sets=1)
    start_night(night)
    return night


def _fix_url(night, number=1, rnd=1):
    return reverse("play:table_fix", args=[night.pk, number]) + f"?round={rnd}"


def test_an_entry_put_back_counts_again_and_rings_the_bell_it_rang(night):
    rnd = current_round(night)
    head = night.tables.get(number=1)
    last = None
    for _ in range(11):
        last = tap(head, 1, "points", 2)
    assert round_board(rnd).bell
    entry_undo(table=head, entry_id=last.pk)
    board = round_board(rnd)
    assert not board.bell and board.table(head.pk).scores[0] == 20

    entry_put_back(table=head, entry_id=last.pk)
    entry_put_back(table=head, entry_id=last.pk)  # twice: nothing more
    board = round_board(rnd)
    assert board.bell and board.table(head.pk).scores[0] == 22
    last.refresh_from_db()
    assert last.undone_at is None


def test_an_entry_of_another_table_is_not_put_back(night):
    entry = tap(night.tables.get(number=2), 1, "points", 1)
    entry_undo(table=entry.table, entry_id=entry.pk)
    with pytest.raises(ServiceError) as caught:
        entry_put_back(table=night.tables.get(number=1), entry_id=entry.pk)
    assert caught.value.code == "unknown_entry"
    assert Entry.objects.get(pk=entry.pk).undone_at is not None


def test_the_host_puts_back_an_undone_entry_from_the_correction_page(client, night):
    t2 = night.tables.get(number=2)
    entry = tap(t2, 2, "points", 2)
    client.login(username="host", password="bunco")
    url = _fix_url(night, 2)
    client.post(url, {"action": "undo", "round": "1", "entry": str(entry.pk)})
    html = client.get(url).content.decode()
    assert "(undone)" in html and ">Put back</button>" in html
    assert round_board(current_round(night)).table(t2.pk).scores[1] == 0

    response = client.post(
        url, {"action": "put_back", "round": "1", "entry": str(entry.pk)}, follow=True
    )
    html = response.content.decode()
    assert "Saved." in html and "(undone)" not in html and ">Put back</button>" not in html
    assert round_board(current_round(night)).table(t2.pk).scores[1] == 2


def test_a_bunco_put_back_in_a_closed_round_counts_in_the_results(client, night):
    head = night.tables.get(number=1)
    bunco = tap(head, 3, "bunco")
    entry_undo(table=head, entry_id=bunco.pk, by_host=True)
    play_round(night)
    seat = night.rounds.get(number=1).seats.get(table=head, number=3)
    assert seat.buncos == 0

    client.login(username="host", password="bunco")
    response = client.post(
        _fix_url(night), {"action": "put_back", "round": "1", "entry": str(bunco.pk)}, follow=True
    )
    assert "Saved." in response.content.decode()
    seat.refresh_from_db()
    assert seat.buncos == 1


@pytest.fixture
def tied(night):
    """Table 2 tapped Done at 0-0 after the host rang the bell: a tie's extra turns."""
    from bunco_night.play.services import bell_ring, table_done

    t2 = night.tables.get(number=2)
    for seat in range(1, 5):
        tap(t2, seat, "miss")
    bell_ring(night=night)
    table_done(table=t2)
    return current_round(night), t2


def test_a_turn_of_a_pass_taken_back_is_not_put_back(client, night, tied):
    """docs/rules.md sections 3.4 and 6.2: the table took back the pass it was in."""
    from bunco_night.play.services import extra_turns_done

    rnd, t2 = tied
    tap(t2, 1, "points", 1)
    tap(t2, 2, "points", 1)
    extra_turns_done(table=t2)  # 1-1, still tied: a second pass
    second = tap(t2, 3, "points", 2)
    assert second.extra_pass == 2
    entry_undo(table=t2, entry_id=second.pk)
    extra_turns_done(table=t2, done=False)
    with pytest.raises(ServiceError) as caught:
        entry_put_back(table=t2, entry_id=second.pk)
    assert caught.value.code == "extra_pass_taken_back"
    assert Entry.objects.get(pk=second.pk).undone_at is not None
    assert client.get(reverse("play:table", args=[t2.token])).status_code == 200


def test_a_turn_of_extra_turns_is_not_put_back_once_done_is_taken_back(night, tied):
    from bunco_night.play.services import table_done

    rnd, t2 = tied
    extra = tap(t2, 1, "points", 1)
    entry_undo(table=t2, entry_id=extra.pk)
    table_done(table=t2, done=False)
    with pytest.raises(ServiceError) as caught:
        entry_put_back(table=t2, entry_id=extra.pk)
    assert caught.value.code == "extra_pass_taken_back"


def test_a_turn_of_the_pass_in_play_is_put_back(night, tied):
    rnd, t2 = tied
    extra = tap(t2, 1, "points", 1)
    entry_undo(table=t2, entry_id=extra.pk)
    entry_put_back(table=t2, entry_id=extra.pk)
    assert round_board(rnd).table(t2.pk).scores == (1, 0)


def test_the_correction_page_names_the_tie_break_the_rules_play(client, night, tied):
    """docs/rules.md section 3.4: house rules break a tie with extra turns, not a roll-off."""
    rnd, t2 = tied
    client.login(username="host", password="bunco")
    html = client.get(_fix_url(night, 2)).content.decode()
    assert "The extra turns were won by" in html and "roll-off" not in html
    assert ">Record who won the tie</button>" in html


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's row locks")
@pytest.mark.django_db(transaction=True)
def test_an_undo_sent_again_while_the_first_holds_its_table_changes_nothing_more():
    """A double tap on Undo: the second waits for the first's lock, then finds the entry
    undone already, and neither undoes it again nor works the table out again."""
    night = make_night(make_group(), sets=1)
    start_night(night)
    t2 = night.tables.get(number=2)
    entry = tap(t2, 1, "points", 2)
    answers = []

    def second_send():
        try:
            answers.append(entry_undo(table=t2, entry_id=entry.pk))
        except Exception as error:  # noqa: BLE001 - the test reports it
            answers.append(error)
        finally:
            connection.close()

    first = []
    with held_elsewhere(lambda: first.append(entry_undo(table=t2, entry_id=entry.pk)), commit=True):
        sender = threading.Thread(target=second_send)
        sender.start()
        sender.join(0.5)
        assert sender.is_alive(), "the second send waits for the first one's lock"
    sender.join(10)
    assert len(answers) == 1 and isinstance(answers[0], EntryChanged), answers
    assert answers[0].recomputed is None  # nothing worked out again
    assert Entry.objects.get(pk=entry.pk).undone_at == first[0].entry.undone_at
    assert round_board(current_round(night)).table(t2.pk).scores == (0, 0)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's row locks")
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("closed", [False, True], ids=["round in play", "closed round"])
def test_a_put_back_sent_again_while_the_first_holds_its_table_changes_nothing_more(closed):
    """A double tap on Put back: the second waits for the first's lock, then finds the
    entry counting already, and neither puts it back again nor works the table (or the
    closed round's results) out again: no version moves."""
    night = make_night(make_group(), sets=1)
    rnd = start_night(night)
    t2 = night.tables.get(number=2)
    if closed:
        play_round(night)
        rnd.refresh_from_db()
        entry = tap(t2, 1, "bunco", rnd=rnd, by_host=True)
    else:
        entry = tap(t2, 1, "points", 2)
    entry_undo(table=t2, entry_id=entry.pk, by_host=True)

    def versions():
        return (
            *Night.objects.values_list("version", "scores_version").get(pk=night.pk),
            Table.objects.values_list("version", flat=True).get(pk=t2.pk),
        )

    first = []

    def first_send():
        first.append(entry_put_back(table=t2, entry_id=entry.pk))
        first.append(versions())  # as the first send leaves them

    with (
        held_elsewhere(first_send, commit=True) as commit,
        host_waiting(entry_put_back, table=t2, entry_id=entry.pk) as second,
    ):
        commit()
    assert isinstance(second[0], EntryChanged) and second[0].entry.undone_at is None
    assert second[0].recomputed is None  # nothing worked out again
    assert first[0].entry.undone_at is None
    assert versions() == first[1]
    if closed:
        assert Seat.objects.get(round=rnd, table=t2, number=1).buncos == 1
    else:
        assert round_board(rnd).table(t2.pk).scores == (2, 0)


def test_each_undo_and_put_back_on_the_correction_page_is_named_apart(client, night):
    """Two alike entries (the same roll by the same player) get buttons a screen reader
    tells apart: their names carry the entry's place in the list and its time."""
    head = night.tables.get(number=1)
    entries = [tap(head, 1, "points", 2) for _ in range(4)]
    for entry in entries[:2]:
        entry_undo(table=head, entry_id=entry.pk)
    client.login(username="host", password="bunco")
    html = client.get(_fix_url(night)).content.decode()
    names = re.findall(r'aria-label="((?:Undo|Put back) [^"]*)"', html)
    assert len(names) == 4 and len(set(names)) == 4, names
