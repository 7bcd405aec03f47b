"""Buck Dice kept on one phone (docs/rules.md section 9.3): the order of play, the point
number, every throw, who is out, the loser, and the games in the night's standings."""

import pytest

from bunco_night.core.errors import ServiceError
from bunco_night.games.models import BuckGame, BuckThrow
from bunco_night.games.services import (
    buck_game_close,
    buck_game_start,
    buck_opening_record,
    buck_point_record,
    buck_table_open,
    buck_throw_record,
    buck_undo,
)
from bunco_night.nights.models import Night
from bunco_night.nights.services import seating_draw
from bunco_night.play.services import round_start
from bunco_night.play.standings import bunco_facts, night_standings
from tests.factories import make_group, make_night
from tests.games.helpers import open_game, play_out, state, throw
from tests.play.helpers import nonce

pytestmark = pytest.mark.django_db


@pytest.fixture
def night():
    """Six players on the Buck Dice preset, two games."""
    return make_night(make_group(rules="buck_dice", regulars=6, substitutes=0), sets=2)


def test_a_buck_dice_night_has_no_seating(night):
    """Everyone sits at one table: the dice tables' seating is refused, clearly."""
    with pytest.raises(ServiceError) as caught:
        seating_draw(night=night)
    assert caught.value.code == "buck_dice"
    with pytest.raises(ServiceError) as caught:
        round_start(night=night)
    assert caught.value.code == "buck_dice"


def test_more_than_twenty_players_cannot_play():
    night = make_night(make_group(rules="buck_dice", regulars=21, substitutes=0))
    with pytest.raises(ServiceError) as caught:
        buck_game_start(table=buck_table_open(night=night))
    assert caught.value.code == "bad_player_count"


def test_only_a_buck_dice_night_has_a_buck_dice_table():
    night = make_night(make_group(regulars=6, substitutes=0))
    with pytest.raises(ServiceError) as caught:
        buck_table_open(night=night)
    assert caught.value.code == "not_buck_dice"


def test_the_order_of_play_highest_first_and_the_level_throw_again(night):
    """ "each player throws the three dice to determine the order, highest leading and
    lowest having his turn last"; the app lets the level throw again."""
    game = buck_game_start(table=buck_table_open(night=night))
    a, b, c, d, e, f = game.players
    buck_opening_record(game=game, totals={a: 10, b: 15, c: 10, d: 4, e: 12, f: 9})
    s = state(game)
    assert s.stage == "order" and set(s.to_throw_for_order) == {a, c}
    with pytest.raises(ServiceError) as caught:
        buck_opening_record(game=game, totals={a: 11})
    assert caught.value.code == "missing_totals"
    with pytest.raises(ServiceError) as caught:
        buck_opening_record(game=game, totals={a: 2, c: 11})
    assert caught.value.code == "bad_throw"
    buck_opening_record(game=game, totals={a: 7, c: 11})
    s = state(game)
    assert s.stage == "point"
    assert list(s.order.order) == [b, e, c, a, f, d]
    assert s.point_thrower == d  # "The low man throws a single die to give the Point Number"


def test_a_game_to_the_last_player_left(night):
    game = open_game(night, point=4)
    first, second, *_, last = state(game).play.players
    assert throw(game, "points", 2).player_id == first  # 2, and throws again
    throw(game, "points", 3)  # three 4s: a Big Buck, straight to 15
    s = state(game)
    assert s.play.score_of(first) == 15 and s.play.out == (first,)
    assert s.play.to_throw == second
    throw(game, "mini")  # a Little Buck: 5, and the dice pass
    assert state(game).play.score_of(second) == 5
    s = play_out(game)
    assert s.stage == "over" and s.play.loser == last
    with pytest.raises(ServiceError) as caught:
        throw(game, "miss")
    assert caught.value.code == "game_over"


def test_a_throw_past_15_does_not_count(night):
    game = open_game(night, point=4)
    first = state(game).play.players[0]
    for _ in range(7):
        throw(game, "points", 2)  # 14
    throw(game, "points", 2)  # 16: not counted, the dice pass
    s = state(game)
    assert s.play.score_of(first) == 14 and s.play.to_throw != first
    assert s.played[-1][1].kind == "over"


def test_the_dice_entry_scores_three_dice(night):
    game = open_game(night, point=4)
    assert throw(game, "dice", dice=[4, 4, 1]).count == 2
    assert throw(game, "dice", dice=[4, 4, 4]).kind == "bunco"  # a Big Buck
    assert throw(game, "dice", dice=[2, 2, 2]).kind == "mini"  # a Little Buck
    with pytest.raises(ServiceError) as caught:
        throw(game, "dice", dice=[4, 4])
    assert caught.value.code == "bad_dice"


@pytest.mark.parametrize(
    ("kind", "count", "code"),
    [("points", 0, "bad_count"), ("points", 4, "bad_count"), ("jackpot", 0, "bad_kind")],
)
def test_bad_throws_are_refused(night, kind, count, code):
    game = open_game(night)
    with pytest.raises(ServiceError) as caught:
        throw(game, kind, count)
    assert caught.value.code == code
    assert not BuckThrow.objects.exists()


def test_a_repeated_throw_is_stored_once_and_undo_replays(night):
    game = open_game(night, point=4)
    n = nonce()
    one = buck_throw_record(game=game, nonce=n, kind="points", count=1)
    again = buck_throw_record(game=game, nonce=n, kind="points", count=1)
    assert one.pk == again.pk and BuckThrow.objects.count() == 1
    throw(game, "points", 2)
    assert state(game).play.score_of(one.player_id) == 3
    buck_undo(game=game)
    assert state(game).play.score_of(one.player_id) == 1
    assert BuckThrow.objects.count() == 2  # kept, marked undone
    buck_undo(game=game)
    buck_undo(game=game)  # no throw left: the point number
    assert state(game).stage == "point"
    buck_undo(game=game)  # then the throws for the order
    assert state(game).stage == "order"
    with pytest.raises(ServiceError) as caught:
        buck_undo(game=game)
    assert caught.value.code == "nothing_to_undo"


def test_the_point_number_is_a_die_face(night):
    game = buck_game_start(table=buck_table_open(night=night))
    with pytest.raises(ServiceError) as caught:
        buck_point_record(game=game, point=3)
    assert caught.value.code == "order_not_settled"
    buck_opening_record(game=game, totals={p: 18 - i for i, p in enumerate(game.players)})
    with pytest.raises(ServiceError) as caught:
        buck_point_record(game=BuckGame.objects.get(pk=game.pk), point=7)
    assert caught.value.code == "bad_point"


def test_closed_games_count_in_the_standings_and_the_last_ends_the_night(night):
    """Section 9.3: each player out gets a win, the loser a loss, a Big Buck is a bunco."""
    game = open_game(night, point=4)
    with pytest.raises(ServiceError) as caught:
        buck_game_close(game=game)
    assert caught.value.code == "game_not_over"
    s = play_out(game)
    loser = s.play.loser
    buck_game_close(game=game)
    standings = night_standings(Night.objects.get(pk=night.pk))
    by_player = {st.player: st for st in standings.standings}
    assert by_player[loser].losses == 1 and by_player[loser].wins == 0
    assert all(st.wins == 1 and st.buncos == 1 for p, st in by_player.items() if p != loser)
    assert standings.buncos_rolled == 5
    assert standings.last_bunco.roller.pk == s.play.out[-1]
    second = open_game(night, point=2)
    play_out(second)
    buck_game_close(game=second)
    night.refresh_from_db()
    assert night.is_over
    with pytest.raises(ServiceError) as caught:
        buck_game_start(table=buck_table_open(night=night))
    assert caught.value.code == "night_over"


def test_the_host_screens_count_big_bucks_as_buncos_while_a_game_is_played(night):
    """Section 9.3: a Big Buck is a bunco, so the live board's count, last bunco and fuzzy
    die (read without the standings) follow the game before it is closed."""
    game = open_game(night, point=4)
    facts = bunco_facts(night)
    assert (facts.buncos_rolled, facts.last_bunco) == (0, None)
    first = state(game).play.to_throw
    throw(game, "bunco")
    facts = bunco_facts(Night.objects.get(pk=night.pk))
    assert facts.buncos_rolled == 1
    assert facts.last_bunco.roller.pk == first
    assert isinstance(facts.last_bunco, BuckThrow)
