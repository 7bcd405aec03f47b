"""Two-dice bunko played through the services (docs/rules.md section 9.2): two dice, the
doubles in a row counted by the app, a bunco that wins its table and stops every table,
the first side anywhere to its target (section 3.9), ladder movement with head-table
partners staying (sections 5.2 and 5.4)."""

import pytest

from bunco_night.core.errors import ServiceError
from bunco_night.nights.models import Round
from bunco_night.play.models import Entry
from bunco_night.play.pages import table_page
from bunco_night.play.rolls import taps
from bunco_night.play.services import round_close
from bunco_night.play.state import engine_bell, round_board
from tests.factories import make_group, make_night
from tests.nights.helpers import partner_pairs
from tests.play.helpers import start_night, tap

pytestmark = pytest.mark.django_db


@pytest.fixture
def night():
    """Twelve players on the two-dice preset: three tables of four."""
    return make_night(make_group(rules="two_dice", regulars=12, substitutes=0), sets=1)


def board_table(rnd, number):
    return next(t for t in round_board(rnd).tables if t.table.number == number)


def test_the_round_has_a_mark_rolled_with_a_die(night):
    """Section 9.2: "A person at the head table rolls one dice to get a number"."""
    rnd = start_night(night)
    assert 1 <= rnd.mark <= 6
    assert night.rules_obj.is_two_dice and night.rules_obj.draw_mark_with_die


@pytest.mark.parametrize(
    ("tap_kind", "count", "kind", "points", "dice_count"),
    [
        ("points", 1, "points", 1, 1),  # one die shows the mark: mark_die_points
        ("points", 2, "pair", 2, 2),  # both dice: mark_pair_points
        ("pair", 0, "pair", 2, 2),
        ("doubles", 0, "doubles", 0, 0),  # doubles of another number: roll again, no points
        ("miss", 0, "miss", 0, 0),
        ("bunco", 0, "bunco", 0, 0),  # a table that knows better taps the bunco
    ],
)
def test_what_two_dice_score(night, tap_kind, count, kind, points, dice_count):
    """Section 9.2: 1 point for one die showing the mark, 2 for both; doubles score nothing."""
    rnd = start_night(night)
    entry = tap(board_table(rnd, 2).table, 1, tap_kind, count)
    assert (entry.kind, entry.points, entry.count) == (kind, points, dice_count)


def test_three_dice_taps_and_three_of_a_kind_are_refused(night):
    rnd = start_night(night)
    t2 = board_table(rnd, 2).table
    for kind, count in (("mini", 0), ("low", 0), ("points", 3)):
        with pytest.raises(ServiceError) as caught:
            tap(t2, 1, kind, count)
        assert caught.value.code in ("bad_kind", "bad_count")


def test_dice_entry_takes_two_dice(night):
    rnd = start_night(night)
    t2 = board_table(rnd, 2).table
    mark = rnd.mark
    other = mark % 6 + 1
    assert tap(t2, 1, "dice", dice=[mark, other]).kind == "points"
    assert tap(t2, 1, "dice", dice=[mark, mark]).kind == "pair"
    assert tap(t2, 1, "dice", dice=[other, other]).kind == "doubles"
    with pytest.raises(ServiceError) as caught:
        tap(t2, 1, "dice", dice=[mark, mark, mark])
    assert caught.value.code == "bad_dice"


def test_the_third_doubles_in_a_row_is_a_bunco_that_wins_and_stops_every_table(night):
    """Section 9.2: "If they roll doubles (of any combination) three times straight, that
    team wins the round, screams BUNKO"; the app stops every table (bunco_ends_round)."""
    rnd = start_night(night)
    t1, t2 = board_table(rnd, 1).table, board_table(rnd, 2).table
    tap(t1, 1, "points", 1)
    tap(t2, 2, "pair")  # Them lead 2-0 at table 2
    tap(t2, 1, "doubles")
    tap(t2, 1, "doubles")
    assert not engine_bell(rnd, night.rules_obj)
    third = tap(t2, 1, "doubles")
    assert (third.kind, third.points) == ("bunco", 0)
    rnd.refresh_from_db()
    assert rnd.bell_at is not None and not rnd.bell_by_host
    board = round_board(rnd)
    t2_view = board.table(t2.pk)
    assert t2_view.winner_side == 0  # seats 1 and 3 win though they trailed 0-2
    assert board.table(t1.pk).winner_side == 0  # table 1 stopped: its leader wins
    assert board.table(board_table(rnd, 3).table.pk).outcome.needs_tiebreak  # 0-0 at table 3


def test_another_roll_breaks_the_run_of_doubles(night):
    rnd = start_night(night)
    t2 = board_table(rnd, 2).table
    tap(t2, 1, "doubles")
    tap(t2, 1, "doubles")
    tap(t2, 1, "points", 1)  # not doubles: the count starts again
    tap(t2, 1, "doubles")
    tap(t2, 1, "doubles")
    assert Entry.objects.filter(kind="bunco").count() == 0
    tap(t2, 2, "doubles")  # another seat's doubles do not add to seat 1's run
    assert tap(t2, 1, "doubles").kind == "doubles"
    assert tap(t2, 1, "doubles").kind == "doubles"
    assert tap(t2, 1, "doubles").kind == "bunco"


def test_a_pair_is_a_double_too(night):
    """Section 9.2: a pair is doubles of the mark, and counts towards the three."""
    rnd = start_night(night)
    t2 = board_table(rnd, 2).table
    tap(t2, 3, "pair")
    tap(t2, 3, "doubles")
    assert tap(t2, 3, "pair").kind == "bunco"


def test_the_first_team_anywhere_to_21_stops_every_table(night):
    """Section 3.9: "The first team to "21" yells ... Play at all the other tables stop
    immediately with who ever is ahead in score at that particular point advancing"."""
    rnd = start_night(night)
    t1, t3 = board_table(rnd, 1).table, board_table(rnd, 3).table
    tap(t1, 2, "points", 1)
    for _ in range(6):  # a pair, then one die: never three doubles in a row
        tap(t3, 2, "pair")
        tap(t3, 2, "points", 1)
    tap(t3, 2, "pair")
    rnd.refresh_from_db()
    assert rnd.bell_at is None  # Them at table 3 have 20
    tap(t3, 4, "points", 1)
    rnd.refresh_from_db()
    assert rnd.bell_at is not None
    board = round_board(rnd)
    assert board.table(t3.pk).winner_side == 1
    assert board.table(t1.pk).winner_side == 1  # Them led 1-0 when the bell rang


def test_undoing_the_bunco_takes_the_bell_back(night):
    """docs/rules.md section 6.2: the bell follows the entries."""
    from bunco_night.play.services import entry_undo

    rnd = start_night(night)
    t2 = board_table(rnd, 2).table
    bunco = tap(t2, 1, "bunco")
    rnd.refresh_from_db()
    assert rnd.bell_at is not None
    entry_undo(table=t2, entry_id=bunco.pk)
    rnd.refresh_from_db()
    assert rnd.bell_at is None


def test_a_bunco_at_the_head_table_rings_the_bell_under_head_table_control():
    """Section 3.1 with two dice: the head table won by a bunco rings the bell."""
    group = make_group(rules="two_dice", regulars=12, substitutes=0, round_end="head_table")
    night = make_night(group, sets=1)
    rnd = start_night(night)
    t2 = board_table(rnd, 2).table
    tap(t2, 1, "bunco")
    rnd.refresh_from_db()
    assert rnd.bell_at is None  # not the head table: play goes on there
    assert round_board(rnd).table(t2.pk).winner_side == 0  # but table 2 is won
    tap(board_table(rnd, 1).table, 2, "bunco")
    rnd.refresh_from_db()
    assert rnd.bell_at is not None


def test_closing_credits_the_bunco_and_moves_winners_up_with_head_partners_staying(night):
    """Sections 5.2 and 5.4: winners move up; the head table's winners stay partners."""
    rnd = start_night(night)
    head = board_table(rnd, 1)
    winners_at_head = {s.player_id for s in head.seats if s.number in (1, 3)}
    for number in (2, 3):
        tap(board_table(rnd, number).table, 2, "points", 1)
    bunco = tap(head.table, 1, "bunco")  # stops every table: Them lead at tables 2 and 3
    nxt = round_close(rnd=Round.objects.get(pk=rnd.pk))
    seat = next(s for s in head.seats if s.player_id == bunco.roller_id)
    seat.refresh_from_db()
    assert (seat.won, seat.buncos) == (True, 1)
    assert frozenset(winners_at_head) in partner_pairs(nxt)


def test_the_table_phone_offers_two_dice_taps_and_counts_doubles(night):
    rnd = start_night(night)
    t2 = board_table(rnd, 2).table
    values = [t.value for t in taps(night.rules_obj, rnd.mark)]
    assert values[:4] == ["points:1", "pair", "bunco", "miss"]  # the first two rows
    assert "doubles" in values and "mini" not in values
    tap(t2, 3, "doubles")
    tap(t2, 3, "doubles")
    page = table_page(t2)
    assert page.dice == "12"
    name = page.here.seats[2].occupant_name
    assert page.streak == (name, 2)
    assert [e.describe(night.rules_obj) for e in page.recent] == ["Doubles", "Doubles"]
