"""The host saves a night with fewer sets while its round is being closed, on PostgreSQL,
each on its own connection, committing.

The save reads the last round played only once it holds the night, as a round's close
does before it seats the next round: the two serialise, and whichever goes second sees
what the first did. A night shortened to the round just closed ends (docs/rules.md
section 8.4), and no round is left seated beyond its last.
"""

import pytest
from django.db import connection

from bunco_night.nights.models import Night, Round
from bunco_night.nights.services import night_update
from bunco_night.play.services import round_close
from tests.factories import make_group, make_night
from tests.locks import held_elsewhere, host_waiting
from tests.play.helpers import play_round, start_night

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's row locks"),
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def night():
    """Two sets of one round each: round 1 in play, every table done."""
    night = make_night(make_group(marks=(1,)), sets=2)
    start_night(night)
    play_round(night, close=False)
    return night


def one_set(night):
    return {"night": night, "date": night.date, "time": None, "place": "", "sets": 1}


def rounds(night):
    return list(night.rounds.order_by("number").values_list("number", "status"))


def test_a_night_shortened_while_its_round_closes_ends_once_the_close_commits(night):
    rnd = night.rounds.get(number=1)
    # The close holds the night and seats round 2; the save waits for it, then sees
    # round 1 closed: it deletes round 2 and ends the night.
    with (
        held_elsewhere(lambda: round_close(rnd=rnd), commit=True) as commit,
        host_waiting(night_update, **one_set(night)),
    ):
        commit()
    night.refresh_from_db()
    assert night.sets == 1 and night.status == Night.Status.FINISHED
    assert rounds(night) == [(1, Round.Status.CLOSED)]


def test_a_round_closed_while_the_night_is_shortened_ends_the_night(night):
    rnd = night.rounds.get(number=1)
    # The other order: the save holds the night; the close waits, then seats no round 2.
    with (
        held_elsewhere(lambda: night_update(**one_set(night)), commit=True) as commit,
        host_waiting(round_close, rnd=rnd) as answer,
    ):
        commit()
    assert answer == [None]  # the last round of the night
    night.refresh_from_db()
    assert night.sets == 1 and night.status == Night.Status.FINISHED
    assert rounds(night) == [(1, Round.Status.CLOSED)]
