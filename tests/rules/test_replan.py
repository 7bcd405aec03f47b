"""Re-seating when people come and go between rounds: docs/rules.md section 10."""

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bunco_night.rules.errors import RuleError
from bunco_night.rules.layouts import balanced_sizes, plan_layout, table_sizes
from bunco_night.rules.movement import next_seating, seat_players
from bunco_night.rules.presets import CARD_1904, DELUXE, HOUSE, LADDER
from bunco_night.rules.replan import replan_seating, round_partners
from tests.search import examples

HOUSE_GHOSTS = HOUSE.with_(fill="ghosts")
LADDER_PAIRS = LADDER.with_(head_partners_stay=True)


def seated(sizes, ghosts=()):
    """Tables named by seat: "T1S1" sits at table 1, seat 1; ``ghosts`` seats take "G…" names."""
    return tuple(
        tuple(f"G{t}{s}" if (t, s) in ghosts else f"T{t}S{s}" for s in range(1, n + 1))
        for t, n in enumerate(sizes, 1)
    )


def ghost_maker():
    made = itertools.count(1)
    return lambda leaver: f"N{next(made)}" + (f"-{leaver}" if leaver else "")


def is_ghost(occupant):
    return occupant.startswith(("G", "N"))


def check(rules, before, after, *, leaving, arriving, ghosts, partners):
    """Everything docs/rules.md section 10 promises of any re-seating."""
    people_before = [o for t in before for o in t if o not in ghosts]
    stay = [p for p in people_before if p not in leaving]
    everyone = sorted(stay + list(arriving))
    seating = after.seating
    people_after = [o for t in seating for o in t if o not in after.ghosts]
    assert sorted(people_after) == everyone  # everyone seated exactly once, leavers gone
    assert not set(leaving) & set(people_after)
    n = len(everyone)
    sizes = [len(t) for t in seating]
    ghosts_per_table = [sum(o in after.ghosts for o in t) for t in seating]
    if rules.is_card_game:
        assert sizes == balanced_sizes(n) and not after.ghosts
    elif rules.fill == "ghosts" and n > 4:
        assert sizes == [4] * (-(-n // 4))  # ceil(n / 4) tables of four
        assert max(ghosts_per_table) <= 2
        assert sum(ghosts_per_table) == 4 * len(sizes) - n
    else:
        assert sizes == table_sizes(n) and not after.ghosts
    assert after.ghosts == {o for t in seating for o in t if o in ghosts or o in after.added_ghosts}
    assert not after.ghosts & set(everyone)
    # Partners: no ghost pair, and nobody with last round's partner (the head table keeps its
    # pairs under the head-table variant, docs/rules.md section 5.4).
    for number, t in enumerate(seating, start=1):
        if len(t) == 4 and len(seating) > 1 and not rules.is_card_game:
            for a, b in ((t[0], t[2]), (t[1], t[3])):
                assert not (a in after.ghosts and b in after.ghosts)
                if not (rules.head_partners_stay and number == 1):
                    assert partners.get(a) != b
    # Who moved: people whose table changed, and only they.
    old = {o: i for i, t in enumerate(before) for o in t}
    new = {o: i for i, t in enumerate(seating) for o in t}
    assert set(after.moved) == {p for p in stay if old[p] != new[p]}
    # A table nobody left or joined is exactly as it was.
    for i, t in enumerate(before[: len(seating)]):
        if set(t) == set(seating[i]):
            assert seating[i] == t


def fewest_moves(rules, before, leaving, ghosts, n):
    """The fewest people who must change tables, found by trying every layout (an oracle)."""
    here = [len([o for o in t if o not in ghosts and o not in leaving]) for t in before]
    if rules.is_card_game or rules.fill != "ghosts" or n <= 4:
        target = balanced_sizes(n) if rules.is_card_game else table_sizes(n)
        target = target + [0] * max(0, len(here) - len(target))
        return sum(max(0, h - t) for h, t in zip(here, target, strict=False))
    count = -(-n // 4)
    here += [0] * max(0, count - len(here))
    best = None
    for people in itertools.product((2, 3, 4), repeat=count):
        if sum(people) == n:
            cost = sum(max(0, h - q) for h, q in zip(here, people, strict=False))
            cost += sum(here[count:])
            best = cost if best is None else min(best, cost)
    return best


def played_night(rules, players, rng):
    """Last round's seating (a random draw) and the next round's, as the movement made it."""
    layout = plan_layout(players, rules)
    ghosts = [f"G{i}" for i in range(layout.ghosts)]
    names = [f"P{i}" for i in range(players)]
    rng.shuffle(names)
    last = seat_players([(t.seats, t.ghosts) for t in layout.tables], names, ghosts)
    winners = [
        rng.choice([(1, 3), (2, 4)]) if t.teams else (rng.randint(1, t.seats),)
        for t in layout.tables
    ]
    return last, next_seating(rules, last, winners, set(ghosts)), set(ghosts)


def replan_and_check(rules, last, before, ghosts, leaving, arriving):
    partners = round_partners(rules, last)
    after = replan_seating(
        rules,
        before,
        leaving=leaving,
        arriving=arriving,
        ghosts=ghosts,
        new_ghost=ghost_maker(),
        partners=partners,
    )
    check(
        rules, before, after, leaving=leaving, arriving=arriving, ghosts=ghosts, partners=partners
    )
    return after


def row(table, seats, ghost_seats=()):
    """Table ``table`` as ``seated`` names it: "T2S1", "T2S2", ..."""
    return seated([0] * (table - 1) + [seats], {(table, s) for s in ghost_seats})[-1]


# Small tables, docs/rules.md sections 4 and 10: (sizes, leaving, arriving, seating, moved).
SMALL_TABLES = [
    # 12 -> 11 (4+4+3): the bottom table shrinks; its last seat fills the leaver's chair.
    (
        [4, 4, 4],
        ["T1S2"],
        [],
        (("T1S1", "T3S4", "T1S3", "T1S4"), row(2, 4), row(3, 3)),
        1,
    ),
    # 12 -> 13 (4+4+3+2): the arrival goes where the layout grows, at the bottom.
    ([4, 4, 4], [], ["New"], (row(1, 4), row(2, 4), row(3, 3), ("New", "T3S4")), 1),
    # 12, one leaves and one arrives: the arrival takes the chair; nobody else moves.
    ([4, 4, 4], ["T2S3"], ["New"], (row(1, 4), ("T2S1", "T2S2", "New", "T2S4"), row(3, 4)), 0),
    # 9 (4+3+2) -> 8 (4+4): the bottom table goes; one of its two players leaves.
    ([4, 3, 2], ["T3S1"], [], (row(1, 4), ("T2S1", "T2S2", "T2S3", "T3S2")), 1),
    # 9 -> 8 with the leaver at the head table: both players of the bottom table move.
    (
        [4, 3, 2],
        ["T1S1"],
        [],
        (("T3S1", "T1S2", "T1S3", "T1S4"), ("T2S1", "T2S2", "T2S3", "T3S2")),
        2,
    ),
    # 10 (4+4+2), two leave the head table, two arrive: they take the chairs.
    (
        [4, 4, 2],
        ["T1S1", "T1S3"],
        ["A", "B"],
        (("A", "T1S2", "B", "T1S4"), row(2, 4), row(3, 2)),
        0,
    ),
    # 5 (3+2) -> 4: one table of individuals; the head table keeps its seats.
    ([3, 2], ["T2S1"], [], (("T1S1", "T1S2", "T1S3", "T2S2"),), 1),
    ([3, 2], ["T1S2"], [], (("T1S1", "T2S1", "T1S3", "T2S2"),), 2),
    # 4 -> 5 (3+2): the head table's last seat joins the arrival at the new table.
    ([4], [], ["New"], (("T1S1", "T1S2", "T1S3"), ("New", "T1S4")), 1),
    # 7 (4+3) -> 6 (4+2): a player leaves the small table, which closes up; nobody moves.
    ([4, 3], ["T2S2"], [], (row(1, 4), ("T2S1", "T2S3")), 0),
    # 3 -> 2: one table closes up.
    ([3], ["T1S1"], [], (("T1S2", "T1S3"),), 0),
]


@pytest.mark.parametrize(("sizes", "leaving", "arriving", "expected", "moved"), SMALL_TABLES)
def test_small_tables(sizes, leaving, arriving, expected, moved):
    """docs/rules.md section 10: "the layout for the new count follows docs/rules.md 4; tables
    keep their numbers, the head table first; people move only where a table shrinks or
    disappears, and as few as possible; arrivals go where the layout grows, the lowest (last,
    bottom) table first"."""
    before = seated(sizes)
    after = replan_seating(HOUSE, before, leaving=leaving, arriving=arriving)
    assert after.seating == expected
    assert len(after.moved) == moved
    check(HOUSE, before, after, leaving=leaving, arriving=arriving, ghosts=set(), partners={})


# Ghosts fill the seats, docs/rules.md sections 5.5 and 10: (sizes, ghost seats, leaving,
# arriving, seating, moved).
WITH_GHOSTS = [
    # 12: a leaver's seat is taken by a ghost for them.
    ([4, 4, 4], [], ["T1S2"], [], (("T1S1", "N1-T1S2", "T1S3", "T1S4"), row(2, 4), row(3, 4)), 0),
    # 11: an arrival takes the ghost's seat.
    (
        [4, 4, 4],
        [(3, 4)],
        [],
        ["New"],
        (row(1, 4), row(2, 4), ("T3S1", "T3S2", "T3S3", "New")),
        0,
    ),
    # 8 -> 9: a table is added at the bottom; one person moves to sit with the arrival.
    (
        [4, 4],
        [],
        [],
        ["New"],
        (row(1, 4), ("T2S1", "T2S2", "T2S3", "N1"), ("New", "T2S4", "N2", "N3")),
        1,
    ),
    # 9 (a ghost at each table) -> 8: the bottom table is removed; its three move up.
    (
        [4, 4, 4],
        [(1, 4), (2, 4), (3, 4)],
        ["T1S1"],
        [],
        (("T3S1", "T1S2", "T1S3", "T3S2"), ("T2S1", "T2S2", "T2S3", "T3S3")),
        3,
    ),
    # 16 -> 13, three leave table 2: one person comes up from the bottom table.
    (
        [4, 4, 4, 4],
        [],
        ["T2S1", "T2S2", "T2S3"],
        [],
        (
            row(1, 4),
            ("T4S4", "N1-T2S2", "N2-T2S3", "T2S4"),
            row(3, 4),
            ("T4S1", "T4S2", "T4S3", "N3"),
        ),
        1,
    ),
    # 5 (3 + 1 ghost, 2 + 2 ghosts) -> 4: one table of individuals, the ghosts go.
    ([4, 4], [(1, 4), (2, 3), (2, 4)], ["T2S1"], [], (("T1S1", "T1S2", "T1S3", "T2S2"),), 1),
    # 4 -> 5: two tables of four; a ghost at the head table, two at the new one.
    ([4], [], [], ["New"], (("T1S1", "T1S2", "T1S3", "N1"), ("New", "T1S4", "N2", "N3")), 1),
]


@pytest.mark.parametrize(
    ("sizes", "ghost_seats", "leaving", "arriving", "expected", "moved"), WITH_GHOSTS
)
@pytest.mark.parametrize("rules", [HOUSE_GHOSTS, LADDER])
def test_with_ghosts(rules, sizes, ghost_seats, leaving, arriving, expected, moved):
    """docs/rules.md section 10: "a leaver's seat is taken by a ghost; an arrival takes a ghost's
    seat when there is one. If the number of tables needed changes (ceil(players / 4)), a table
    is added or removed at the bottom (the last table), moving as few people as possible. A table
    has at most two ghosts, and two ghosts are never partners"."""
    before = seated(sizes, set(ghost_seats))
    ghosts = {o for t in before for o in t if is_ghost(o)}
    after = replan_seating(
        rules, before, leaving=leaving, arriving=arriving, ghosts=ghosts, new_ghost=ghost_maker()
    )
    assert after.seating == expected
    assert len(after.moved) == moved
    check(rules, before, after, leaving=leaving, arriving=arriving, ghosts=ghosts, partners={})


def test_ghosts_made_and_removed_are_reported():
    before = seated([4, 4, 4], {(3, 4)})
    after = replan_seating(
        HOUSE_GHOSTS,
        before,
        leaving=["T1S2"],
        arriving=["A", "B"],
        ghosts={"G34"},
        new_ghost=ghost_maker(),
    )
    # 11 - 1 + 2 = 12 players: the first arrival takes the bottom table's ghost seat, the
    # second the leaver's chair.
    assert after.seating[0][1] == "B" and after.seating[2][3] == "A"
    assert after.removed_ghosts == ("G34",) and after.added_ghosts == () and not after.ghosts


def test_an_arrival_takes_a_leavers_chair_before_another_ghosts():
    """Between two tables with one ghost each, the arrival takes the chair someone just left."""
    before = seated([4, 4, 4], {(3, 4), (2, 4)})  # 10 players
    after = replan_seating(
        HOUSE_GHOSTS,
        before,
        leaving=["T1S3"],
        arriving=["New"],
        ghosts={"G34", "G24"},
        new_ghost=ghost_maker(),
    )
    assert after.seating[0] == ("T1S1", "T1S2", "New", "T1S4")
    assert after.added_ghosts == () and after.removed_ghosts == ()


def test_a_newcomer_is_not_seated_with_last_rounds_partner():
    """docs/rules.md section 10: "nobody gets last round's partner again": T3S4 comes to table 1
    opposite T1S3, last round's partner; one stayer shifts one chair (section 5.3)."""
    before = seated([4, 4, 4])
    partners = {"T1S3": "T3S4", "T3S4": "T1S3"}
    after = replan_seating(HOUSE, before, leaving=["T1S1"], partners=partners)
    assert after.seating[0] == ("T1S2", "T3S4", "T1S3", "T1S4")
    assert after.moved == ("T3S4",)


def test_two_ghosts_are_never_partners():
    """A leaver's ghost would sit across from the table's ghost: the table re-pairs."""
    before = (("A", "G1", "B", "C"), ("D", "E", "F", "H"))
    after = replan_seating(
        HOUSE_GHOSTS, before, leaving=["C"], ghosts={"G1"}, new_ghost=lambda leaver: "G2"
    )
    assert after.seating[0] == ("A", "G1", "G2", "B")
    assert after.seating[1] == before[1]


def test_head_table_pairs_stay_with_the_variant():
    """docs/rules.md section 5.4: with the variant the head-table pairs are kept when a table
    changes; at other tables last round's partners are still split."""
    last = (("A", "B", "C", "D"), ("E", "F", "G", "H"), ("I", "J", "K", "L"))
    before = next_seating(LADDER_PAIRS, last, [(1, 3), (1, 3), (1, 3)])
    assert before[0] == ("A", "E", "C", "G")
    after = replan_seating(
        LADDER_PAIRS,
        before,
        leaving=["G"],
        arriving=["New"],
        partners=round_partners(LADDER_PAIRS, last),
    )
    assert after.seating[0] == ("A", "E", "C", "New")


def test_before_round_one_everyone_else_stays():
    """docs/rules.md section 10: "Before round 1 has been played nobody has a last-round
    partner; the rule still keeps everyone else in place"."""
    before = seated([4, 4, 4])
    after = replan_seating(HOUSE, before, leaving=["T2S2"], arriving=["New"])
    assert after.seating == (before[0], ("T2S1", "New", "T2S3", "T2S4"), before[2])
    assert after.moved == ()


@pytest.mark.parametrize("rules", [DELUXE, HOUSE, HOUSE_GHOSTS, LADDER, LADDER_PAIRS, CARD_1904])
@pytest.mark.parametrize("players", range(5, 13))
def test_every_single_leaver_and_arrival(rules, players):
    """5..12 players: each possible leaver, an arrival, each leaver with an arrival, and two
    leavers: the checks of section 10 and exactly the fewest moves."""
    rng = random.Random(players)
    last, before, ghosts = played_night(rules, players, rng)
    people = [o for t in before for o in t if o not in ghosts]
    cases = [([p], []) for p in people] + [([], ["New"]), ([], ["New", "Newer"])]
    cases += [([p], ["New"]) for p in people]
    cases += [(list(pair), []) for pair in itertools.combinations(people, 2)]
    for leaving, arriving in cases:
        n = players - len(leaving) + len(arriving)
        after = replan_and_check(rules, last, before, ghosts, leaving, arriving)
        assert len(after.moved) == fewest_moves(rules, before, leaving, ghosts, n)


@pytest.mark.parametrize("rules", [HOUSE, HOUSE_GHOSTS, LADDER, DELUXE])
def test_a_large_night(rules):
    """200 players, 10 leave and 7 arrive."""
    rng = random.Random(200)
    last, before, ghosts = played_night(rules, 200, rng)
    people = [o for t in before for o in t if o not in ghosts]
    leaving = rng.sample(people, 10)
    arriving = [f"New {i}" for i in range(7)]
    after = replan_and_check(rules, last, before, ghosts, leaving, arriving)
    here = [len([o for o in t if o not in ghosts and o not in leaving]) for t in before]
    if rules.fill == "ghosts":
        # 197 players: 50 tables, as many as before. A table keeps its people unless it has
        # fewer than two left; the rest of the count is made up from the fullest tables.
        assert len(after.seating) == 50
        assert len(after.moved) == max(0, sum(max(2, h) for h in here) - 197)
    else:
        assert len(after.moved) == fewest_moves(rules, before, leaving, ghosts, 197)
    # Everyone else keeps their table.
    assert len(after.moved) <= 10


def test_the_same_inputs_give_the_same_seating():
    rng = random.Random(5)
    last, before, ghosts = played_night(LADDER, 37, rng)
    people = [o for t in before for o in t if o not in ghosts]
    leaving = people[::7]
    runs = [
        replan_seating(
            LADDER,
            before,
            leaving=order,
            arriving=["A", "B", "C"],
            ghosts=ghosts,
            new_ghost=ghost_maker(),
            partners=round_partners(LADDER, last),
        )
        for order in (leaving, list(reversed(leaving)), set(leaving))
    ]
    assert runs[0] == runs[1] == runs[2]


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"leaving": ["Nobody"]}, "not_seated"),
        ({"leaving": ["G14"]}, "ghost_cannot_leave"),
        ({"arriving": ["T1S1"]}, "already_seated"),
        ({"arriving": ["A", "A"]}, "arrives_twice"),
        ({"leaving": ["T1S1", "T1S2", "T1S3", "T2S1", "T2S2", "T2S3"]}, "too_few_players"),
        ({"leaving": ["T1S1"], "new_ghost": None}, "no_ghost_maker"),
        ({"leaving": ["T1S1"], "new_ghost": lambda leaver: "T2S1"}, "bad_ghost"),
    ],
)
def test_impossible_changes_are_refused(kwargs, code):
    before = seated([4, 4], {(1, 4), (2, 4)})
    with pytest.raises(RuleError) as caught:
        replan_seating(HOUSE_GHOSTS, before, ghosts={"G14", "G24"}, **kwargs)
    assert caught.value.code == code


def test_someone_seated_twice_is_refused():
    with pytest.raises(RuleError) as caught:
        replan_seating(HOUSE, (("A", "B", "C"), ("A", "D")), arriving=["E"])
    assert caught.value.code == "seated_twice"


@st.composite
def comings_and_goings(draw):
    rules = draw(st.sampled_from([DELUXE, HOUSE, HOUSE_GHOSTS, LADDER, LADDER_PAIRS, CARD_1904]))
    players = draw(st.one_of(st.integers(2, 24), st.integers(25, 300)))
    rng = random.Random(draw(st.integers(0, 10**6)))
    last, before, ghosts = played_night(rules, players, rng)
    people = [o for t in before for o in t if o not in ghosts]
    leaving = draw(st.lists(st.sampled_from(people), unique=True, max_size=min(12, players)))
    arriving = [f"New {i}" for i in range(draw(st.integers(0, 9)))]
    if players - len(leaving) + len(arriving) < 2:
        arriving += ["New a", "New b"]
    return rules, last, before, ghosts, leaving, arriving


@settings(max_examples=examples(200), deadline=None)
@given(comings_and_goings())
def test_any_comings_and_goings(case):
    """docs/rules.md section 10 for any night of 2..300 players under every preset: the checks
    above, the fewest moves where every layout can be tried, and no change changes nothing."""
    rules, last, before, ghosts, leaving, arriving = case
    after = replan_and_check(rules, last, before, ghosts, leaving, arriving)
    n = len([o for t in before for o in t if o not in ghosts]) - len(leaving) + len(arriving)
    if rules.fill != "ghosts" or rules.is_card_game or n <= 24:
        assert len(after.moved) == fewest_moves(rules, before, leaving, ghosts, n)
    same = replan_seating(
        rules, before, ghosts=ghosts, new_ghost=ghost_maker(), partners=round_partners(rules, last)
    )
    assert same.seating == before and same.moved == same.added_ghosts == same.removed_ghosts == ()
