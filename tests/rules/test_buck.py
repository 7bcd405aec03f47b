"""Buck Dice: docs/rules.md section 9.3, a state machine for one table."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bunco_night.rules.buck import buck_game, buck_order, buck_replay
from bunco_night.rules.errors import RuleError
from bunco_night.rules.layouts import MAX_BUCK_PLAYERS, plan_layout
from bunco_night.rules.presets import BUCK_DICE, HOUSE
from bunco_night.rules.replan import replan_seating
from tests.search import examples


def game_at(scores, point=4, turn=0, out=()):
    """A game of Ann, Bea and Cal with the given scores, Ann to throw."""
    game = buck_game(["Ann", "Bea", "Cal"], point, BUCK_DICE)
    return type(game)(
        game.players, game.point, game.target, game.little_buck, tuple(scores), tuple(out), turn
    )


@pytest.mark.parametrize(
    ("score", "dice", "kind", "points", "after", "again"),
    [
        # "scores 1 point for each Point Number thrown, continuing to throw until he throws
        # no instance of the Point Number"
        (0, (4, 2, 6), "points", 1, 1, True),
        (3, (4, 4, 1), "points", 2, 5, True),
        (3, (1, 2, 3), "miss", 0, 3, False),
        # "Any three of a kind except that of the Point Number is a Little Buck, worth 5
        # points": it shows no Point Number, so the dice pass.
        (3, (2, 2, 2), "mini", 5, 8, False),
        # "When a triple Point Number is thrown, it is a Big Buck and the player is
        # immediately credited with 15 points, whatever his previous score may have been."
        (2, (4, 4, 4), "bunco", 13, 15, False),
        # "If a player throws a total above 15 (e.g. he had 14 points and threw 2 or 3
        # instances of the Point Number), the throw is not counted and the dice are passed on."
        (14, (4, 4, 1), "over", 0, 14, False),
        (12, (5, 5, 5), "over", 0, 12, False),
        # "Each player drops out upon reaching exactly 15 points."
        (14, (4, 1, 2), "points", 1, 15, False),
        (10, (3, 3, 3), "mini", 5, 15, False),
    ],
)
def test_a_throw(score, dice, kind, points, after, again):
    game = game_at([score, 0, 0]).throw(dice)
    throw = game.throws[-1]
    assert (throw.kind, throw.points, throw.score, throw.roll_again) == (kind, points, after, again)
    assert game.score_of("Ann") == after
    assert throw.out == (after == 15)
    assert game.to_throw == ("Ann" if again else "Bea")
    assert ("Ann" in game.out) == (after == 15)


@pytest.mark.parametrize(
    ("kind", "count", "expected"),
    [
        ("points", 2, ("points", 2)),
        ("points", 3, ("bunco", 13)),  # three of the point number is a Big Buck
        ("bunco", 0, ("bunco", 13)),
        ("mini", 0, ("mini", 5)),
        ("miss", 0, ("miss", 0)),
    ],
)
def test_taps_score_as_the_dice_do(kind, count, expected):
    throw = game_at([2, 0, 0]).tap(kind, count).throws[-1]
    assert (throw.kind, throw.points) == expected


def test_the_last_player_left_loses_and_the_out_order_is_kept():
    game = game_at([14, 14, 14])
    game = game.tap("points", 1)  # Ann out
    assert game.out == ("Ann",) and game.to_throw == "Bea"
    game = game.tap("points", 2)  # Bea would pass 15: not counted, the dice pass
    assert game.score_of("Bea") == 14 and game.to_throw == "Cal"
    game = game.tap("bunco")  # Cal's Big Buck takes her out
    assert game.over and game.to_throw is None
    assert game.loser == "Bea" and game.places == ("Ann", "Cal", "Bea")
    with pytest.raises(RuleError) as caught:
        game.tap("miss")
    assert caught.value.code == "game_over"


def test_the_turn_skips_players_who_are_out():
    game = game_at([0, 15, 0], out=["Bea"])
    assert game.tap("miss").to_throw == "Cal"
    assert game_at([0, 15, 0], turn=2, out=["Bea"]).tap("miss").to_throw == "Ann"


@pytest.mark.parametrize(
    ("throws", "order", "tied"),
    [
        # "each player throws the three dice to determine the order, highest leading and
        # lowest having his turn last"
        ({"Ann": [9], "Bea": [14], "Cal": [4]}, ("Bea", "Ann", "Cal"), ()),
        ({"Ann": [9], "Bea": [14], "Cal": [9]}, ("Bea", "Ann", "Cal"), (("Ann", "Cal"),)),
        # Those level throw again among themselves.
        ({"Ann": [9, 3], "Bea": [14], "Cal": [9, 11]}, ("Bea", "Cal", "Ann"), ()),
    ],
)
def test_the_order_of_play(throws, order, tied):
    settled = buck_order(throws)
    assert settled.order == order and settled.tied == tied
    # "The low man throws a single die to give the Point Number."
    assert settled.point_thrower == (order[-1] if not tied else None)


@pytest.mark.parametrize(
    ("call", "code"),
    [
        (lambda: buck_order({"Ann": [9]}), "too_few_players"),
        (lambda: buck_order({"Ann": [9], "Bea": [19]}), "bad_throw"),
        (lambda: buck_order({"Ann": [9], "Bea": [9, 4]}), "bad_throw"),
        (lambda: buck_game(["Ann"], 3, BUCK_DICE), "too_few_players"),
        (lambda: buck_game(["Ann", "Ann"], 3, BUCK_DICE), "duplicate_player"),
        (lambda: buck_game(["Ann", "Bea"], 7, BUCK_DICE), "bad_mark"),
        (lambda: buck_game(["Ann", "Bea"], 3, HOUSE), "not_buck_dice"),
        (lambda: buck_game(list(range(MAX_BUCK_PLAYERS + 1)), 3, BUCK_DICE), "too_many_players"),
        (lambda: game_at([0, 0, 0]).tap("over"), "bad_kind"),
        (lambda: game_at([0, 0, 0]).tap("points", 4), "bad_count"),
        (lambda: game_at([0, 0, 0]).throw((1, 2)), "bad_dice"),
    ],
)
def test_refused(call, code):
    with pytest.raises(RuleError) as caught:
        call()
    assert caught.value.code == code


def test_one_table_for_everyone():
    """Section 9.3: one table, each player for themselves, the target is the 15 to reach."""
    (table,) = plan_layout(7, BUCK_DICE).tables
    assert (table.seats, table.teams, table.target) == (7, False, 15)


def test_replay_rebuilds_a_game_from_its_taps():
    taps = [("points", 2), ("miss", 0), ("mini", 0), ("bunco", 0), ("points", 1)]
    game = buck_replay(["Ann", "Bea", "Cal"], 4, BUCK_DICE, taps)
    # Ann 2 and a miss; Bea a Little Buck; Cal a Big Buck, out; Ann 1 more and throws again.
    assert game.scores == (3, 5, 15) and game.out == ("Cal",) and game.to_throw == "Ann"


@settings(max_examples=examples(60), deadline=None)
@given(
    players=st.integers(2, 8),
    point=st.integers(1, 6),
    dice=st.lists(st.tuples(*[st.integers(1, 6)] * 3), min_size=1, max_size=4000),
)
def test_any_game_keeps_the_rules(players, point, dice):
    """Whatever is thrown: nobody passes 15; those out have exactly 15 and never throw
    again; the one to throw is still in; once one player is left the game is over and the
    places are everyone, the loser last."""
    names = [f"P{i}" for i in range(players)]
    game = buck_game(names, point, BUCK_DICE)
    for roll in dice:
        if game.over:
            break
        thrower = game.to_throw
        assert thrower not in game.out
        game = game.throw(roll)
        assert game.throws[-1].player == thrower
        assert all(0 <= s <= 15 for s in game.scores)
        assert all(game.score_of(p) == 15 for p in game.out)
        assert len(set(game.out)) == len(game.out)
    if game.over:
        assert len(game.out) == players - 1
        assert sorted(game.places) == sorted(names) and game.places[-1] == game.loser
    else:
        assert len(game.in_game) >= 2 and game.loser is None


def test_people_who_come_and_go_stay_at_the_one_table():
    """docs/rules.md sections 9.3 and 10: Buck Dice keeps everyone at its one table."""
    seating = (("Ann", "Bea", "Cal", "Dee", "Eve"),)
    after = replan_seating(BUCK_DICE, seating, leaving=["Bea"], arriving=["Fay", "Gus"])
    # An arrival takes the leaver's chair (section 10); the order of play is thrown anew
    # for every game in any case.
    assert after.seating == (("Ann", "Fay", "Cal", "Dee", "Eve", "Gus"),)
    assert after.moved == () and after.ghosts == frozenset()
