"""docs/rules.md section 7.3: a prize's recorded tie-break counts while its winner is
still among the tied. A correction that changes who is level leaves the prize a tie
again (or with its one winner), and the pages still show the standings."""

import pytest

from bunco_night.groups.models import Player
from bunco_night.nights.selectors import seated_tables
from bunco_night.play.services import prize_tiebreak_record, winner_set
from bunco_night.play.standings import night_standings
from tests.factories import make_night
from tests.play.helpers import play_round, start_night

pytestmark = pytest.mark.django_db


def test_a_correction_after_a_tie_break_leaves_the_prize_a_tie_again(group):
    night = make_night(group, sets=1)
    start_night(night)
    play_round(night)
    prize = next(p for p in night_standings(night).prizes if p.code == "most_wins")
    assert prize.tied
    chosen = prize.candidates[0]
    prize_tiebreak_record(night=night, code="most_wins", player=Player.objects.get(pk=chosen))
    # The host corrects the chosen player's table: they lost round 1 after all.
    rnd = night.rounds.get(number=1)
    for t in seated_tables(rnd):
        for s in t.seats:
            if s.player_id == chosen:
                winner_set(rnd=rnd, table=t.table, side=1 - t.game.side_of(s.number))

    after = next(p for p in night_standings(night).prizes if p.code == "most_wins")

    assert chosen not in after.candidates
    assert after.tied and after.winner is None and not after.broken_by_host
