"""People who come and go one at a time (docs/rules.md section 10): "Within a table, seats
may shift only to keep the partner rules". A shift an earlier change needed is undone once
a later change makes it needless, so nobody already seated moves unless a partner rule
needs it, whatever order the host records the comings and goings in."""

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bunco_night.rules.presets import CARD_1904, DELUXE, HOUSE, LADDER
from bunco_night.rules.replan import replan_seating, round_partners
from bunco_night.rules.rounds import plays_teams
from tests.rules.test_replan import HOUSE_GHOSTS, LADDER_PAIRS, check, fewest_moves, played_night
from tests.search import examples


def homes_of(seating, ghosts=frozenset()):
    """Each person's (table, seat) indexes in ``seating``: where they go back to."""
    return {
        o: (t, s)
        for t, occupants in enumerate(seating)
        for s, o in enumerate(occupants)
        if o not in ghosts
    }


def step(rules, seating, *, ghosts, homes, partners=None, leaving=(), arriving=(), made=None):
    made = made if made is not None else itertools.count(1)
    return replan_seating(
        rules,
        seating,
        leaving=leaving,
        arriving=arriving,
        ghosts=ghosts,
        new_ghost=lambda leaver: f"N{next(made)}",
        partners=partners or {},
        homes=homes,
    )


# Table 1 of the cases below: ``before`` is the next round as the movement made it; the
# changes come one at a time; ``after`` is table 1 once they are all recorded.
CASES = [
    pytest.param(
        ("P1", "L", "P3", "G"),
        [("leave", "L"), ("arrive", "X")],
        ("P1", "X", "P3", "G"),
        id="a leaver then an arrival: the arrival takes her seat, nobody else moves",
    ),
    pytest.param(
        ("P1", "L", "P3", "G"),
        [("leave", "L")],
        ("P1", "N1", "G", "P3"),
        id="a leaver alone: her ghost would partner the ghost, so one person shifts",
    ),
    pytest.param(
        ("L1", "P2", "L2", "P4"),
        [("leave", "L1"), ("leave", "L2"), ("arrive", "X")],
        ("X", "P2", "N2", "P4"),
        id="two leavers then an arrival: back as the movement seated them",
    ),
]


@pytest.mark.parametrize(("before", "changes", "after"), CASES)
def test_a_shift_no_partner_rule_needs_any_more_is_undone(before, changes, after):
    seating = (before, ("Q1", "Q2", "Q3", "Q4"), ("R1", "R2", "R3", "G2"))
    ghosts = frozenset({"G", "G2"})
    homes, made = homes_of(seating, ghosts), itertools.count(1)
    for kind, who in changes:
        change = {"leaving": [who]} if kind == "leave" else {"arriving": [who]}
        result = step(HOUSE_GHOSTS, seating, ghosts=ghosts, homes=homes, made=made, **change)
        seating, ghosts = result.seating, result.ghosts
    assert seating[0] == after
    assert seating[1:] == (("Q1", "Q2", "Q3", "Q4"), ("R1", "R2", "R3", "G2"))


def test_without_homes_a_shift_stays_as_before():
    """Homes are what brings people back: the same two steps without them keep the shift."""
    seating = (("P1", "L", "P3", "G"), ("Q1", "Q2", "Q3", "Q4"))
    first = step(HOUSE_GHOSTS, seating, ghosts={"G"}, homes={}, leaving=["L"])
    second = step(HOUSE_GHOSTS, first.seating, ghosts=first.ghosts, homes={}, arriving=["X"])
    assert second.seating[0] == ("P1", "X", "G", "P3")


def test_a_partner_rule_still_keeps_someone_off_her_seat():
    """Last round's partners are never partners again, home or not (section 5.3)."""
    seating = (("P1", "L", "P3", "G"), ("Q1", "Q2", "Q3", "Q4"))
    # P1 and P3 partnered last round too (a hand swap seated them so): they stay apart.
    partners = {"P1": "P3", "P3": "P1"}
    homes = homes_of(seating, {"G"})
    first = step(HOUSE_GHOSTS, seating, ghosts={"G"}, homes=homes, leaving=["L"], partners=partners)
    second = step(
        HOUSE_GHOSTS,
        first.seating,
        ghosts=first.ghosts,
        homes=homes,
        arriving=["X"],
        partners=partners,
    )
    table = second.seating[0]
    assert (table[0], table[2]) not in {("P1", "P3"), ("P3", "P1")}
    assert (table[1], table[3]) not in {("P1", "P3"), ("P3", "P1")}


def valid(rules, table, number, tables, ghosts, partners) -> bool:
    """Whether table ``number``'s occupants in this order keep the partner rules."""
    if len(table) != 4 or not plays_teams(rules, seats=4, tables=tables):
        return True
    for a, b in ((table[0], table[2]), (table[1], table[3])):
        if a in ghosts and b in ghosts:
            return False
        if not (rules.head_partners_stay and number == 0) and partners.get(a) == b:
            return False
    return True


def could_stay(rules, table, number, tables, ghosts, partners, pinned) -> bool:
    """Whether some order of ``table``'s occupants keeps the partner rules with every
    person of ``pinned`` (person -> the seats they may have) in one of their seats."""
    for order in itertools.permutations(table):
        if all(order.index(p) in seats for p, seats in pinned.items()) and valid(
            rules, order, number, tables, ghosts, partners
        ):
            return True
    return False


@st.composite
def evenings(draw):
    """A night after a round, and people leaving and arriving one at a time."""
    rules = draw(st.sampled_from([HOUSE_GHOSTS, HOUSE, DELUXE, LADDER, LADDER_PAIRS]))
    players = draw(st.integers(5, 30))
    rng = random.Random(draw(st.integers(0, 10**6)))
    last, before, ghosts = played_night(rules, players, rng)
    changes, here, newcomers = [], [o for t in before for o in t if o not in ghosts], 0
    for _ in range(draw(st.integers(1, 6))):
        if len(here) > 5 and draw(st.booleans()):
            who = draw(st.sampled_from(sorted(here)))
            here.remove(who)
            changes.append(("leave", who))
        else:
            newcomers += 1
            here.append(f"New {newcomers}")
            changes.append(("arrive", here[-1]))
    return rules, last, before, ghosts, changes


def evening_changes(evening):
    """Each change of ``evening`` recorded one at a time: the evening's rules, partners and
    homes, the seating and ghosts before the change, who comes or goes (as ``leaving`` and
    ``arriving``), and the re-seating it makes, which the next change starts from."""
    rules, last, seating, ghosts, changes = evening
    partners = round_partners(rules, last)
    homes, made = homes_of(seating, ghosts), itertools.count(1)
    ghosts = frozenset(ghosts)
    for kind, who in changes:
        leaving, arriving = ([who], []) if kind == "leave" else ([], [who])
        result = step(
            rules,
            seating,
            ghosts=ghosts,
            homes=homes,
            partners=partners,
            leaving=leaving,
            arriving=arriving,
            made=made,
        )
        yield rules, partners, homes, seating, ghosts, who, leaving, arriving, result
        seating, ghosts = result.seating, result.ghosts


@settings(max_examples=300, deadline=None)
@given(evenings())
def test_nobody_already_seated_moves_unless_a_partner_rule_needs_it(evening):
    """After every change, for anyone seated before it who keeps their table: their seat
    is the same, or it is their home (the movement's seat), or the table's size changed
    (it closed up or grew), or no order of the table keeps the partner rules with
    everyone already there in their seat or home. And a table that changed has everyone
    at home whenever some order of it keeps the rules so."""
    for rules, partners, homes, seating, ghosts, _who, leaving, arriving, result in evening_changes(
        evening
    ):
        check(
            rules,
            seating,
            result,
            leaving=leaving,
            arriving=arriving,
            ghosts=ghosts,
            partners=partners,
        )
        after = result.seating
        where = {o: (t, s) for t, table in enumerate(seating) for s, o in enumerate(table)}
        for number, table in enumerate(after):
            if number >= len(seating) or tuple(table) == tuple(seating[number]):
                continue
            old = seating[number]
            stayed = [o for o in table if o in old and o not in result.ghosts]
            pinned = {
                p: {where[p][1]} | ({homes[p][1]} if homes.get(p, (None,))[0] == number else set())
                for p in stayed
            }
            for p in stayed:
                seat = table.index(p)
                if len(table) == len(old) and seat not in pinned[p]:
                    assert not could_stay(
                        rules, table, number, len(after), result.ghosts, partners, pinned
                    ), (p, old, table)
            home = {p: {homes[p][1]} for p in stayed if homes.get(p, (None,))[0] == number}
            others = {p: {where[p][1]} for p in stayed if p not in home}
            if len(table) == len(old) and could_stay(
                rules, table, number, len(after), result.ghosts, partners, home | others
            ):
                assert all(table.index(p) == homes[p][1] for p in home), (old, table)


def seats_of(seating, ghosts):
    """Person -> (table, seat) in ``seating``, and the set of ghosts' (table, seat)."""
    people, ghost_seats = {}, set()
    for t, occupants in enumerate(seating):
        for s, o in enumerate(occupants):
            if o in ghosts:
                ghost_seats.add((t, s))
            else:
                people[o] = (t, s)
    return people, ghost_seats


@st.composite
def a_leaver_and_an_arrival(draw):
    """A night after a round, one of its players, and the order the host records them in."""
    rules = draw(st.sampled_from([HOUSE_GHOSTS, HOUSE, DELUXE, LADDER, LADDER_PAIRS, CARD_1904]))
    players = draw(st.integers(5, 40))
    rng = random.Random(draw(st.integers(0, 10**6)))
    last, before, ghosts = played_night(rules, players, rng)
    leaver = draw(st.sampled_from(sorted(o for t in before for o in t if o not in ghosts)))
    return rules, last, before, frozenset(ghosts), leaver, draw(st.booleans())


def leave_and_arrive(rules, last, before, ghosts, leaver, leaver_first):
    partners, homes, made = (
        round_partners(rules, last),
        homes_of(before, ghosts),
        itertools.count(1),
    )
    changes = [{"leaving": [leaver]}, {"arriving": ["New"]}]
    seating = before
    for change in changes if leaver_first else reversed(changes):
        result = step(
            rules, seating, ghosts=ghosts, homes=homes, partners=partners, made=made, **change
        )
        check(
            rules,
            seating,
            result,
            ghosts=ghosts,
            partners=partners,
            **{"leaving": [], "arriving": []} | change,
        )
        seating, ghosts = result.seating, result.ghosts
    return seating, ghosts, partners


@settings(max_examples=examples(300), deadline=None)
@given(a_leaver_and_an_arrival())
def test_a_leaver_then_an_arrival_is_a_swap_of_the_two(case):
    """docs/rules.md section 10, "One change after another": whatever the first change did (a
    ghost in the leaver's seat, a partner shifted, the bottom table closed and its people
    moved up), once the arrival is recorded the net moves are the arrival into one seat, the
    leaver's or a ghost's; everyone else is in the seat the movement gave them. Recorded the
    other way round (the arrival first), nobody changes table either, and a seat shifts only
    where the arrival, already seated, leaves the partner rules no other way."""
    rules, last, before, ghosts, leaver, leaver_first = case
    after, after_ghosts, partners = leave_and_arrive(
        rules, last, before, ghosts, leaver, leaver_first
    )
    planned, planned_ghosts = seats_of(before, ghosts)
    now, now_ghosts = seats_of(after, after_ghosts)
    assert len(after) == len(before)
    assert {p: t for p, (t, _) in now.items() if p != "New"} == {
        p: t for p, (t, _) in planned.items() if p != leaver
    }
    if leaver_first:
        assert now["New"] in {planned[leaver]} | planned_ghosts
        assert {p: where for p, where in now.items() if p != "New"} == {
            p: where for p, where in planned.items() if p != leaver
        }
        assert now_ghosts == (planned_ghosts | {planned[leaver]}) - {now["New"]}
    else:
        for number, table in enumerate(after):
            stayed = [o for o in table if o in planned and planned[o][0] == number]
            pinned = {p: {planned[p][1]} for p in stayed}
            if any(table.index(p) != planned[p][1] for p in stayed):
                assert not could_stay(
                    rules,
                    table,
                    number,
                    len(after),
                    after_ghosts,
                    partners,
                    pinned | {"New": {now["New"][1]}} if now["New"][0] == number else pinned,
                ), (before[number], table)


@settings(max_examples=examples(200), deadline=None)
@given(evenings())
def test_going_home_never_costs_anyone_else_a_move(evening):
    """docs/rules.md section 10, "Everyone who stays keeps their table": at each change of an
    evening recorded one at a time, the people who change table, other than someone going
    back to the table the round was planned with, are no more than the fewest the change
    needs (the oracle of tests/rules/test_replan.py, for any number of people)."""
    for (
        rules,
        _partners,
        homes,
        seating,
        ghosts,
        who,
        leaving,
        _arriving,
        result,
    ) in evening_changes(evening):
        old = {o: t for t, table in enumerate(seating) for o in table}
        new = {o: t for t, table in enumerate(result.seating) for o in table}
        moved = [
            p
            for p in old
            if p in new and p not in ghosts and new[p] not in (old[p], homes.get(p, (old[p],))[0])
        ]
        n = sum(o not in result.ghosts for table in result.seating for o in table)
        assert len(moved) <= fewest_moves(rules, seating, leaving, ghosts, n), (seating, who)


@st.composite
def two_leave_and_one_comes_back(draw):
    """A ghosts night of full tables after a round; two of its players leave, and then one
    of them (either) is added back."""
    players = 4 * draw(st.integers(3, 10))
    rng = random.Random(draw(st.integers(0, 10**6)))
    last, before, ghosts = played_night(HOUSE_GHOSTS, players, rng)
    people = sorted(o for t in before for o in t if o not in ghosts)
    leavers = draw(st.lists(st.sampled_from(people), min_size=2, max_size=2, unique=True))
    return last, before, frozenset(ghosts), leavers, draw(st.sampled_from(leavers))


@settings(max_examples=examples(200), deadline=None)
@given(two_leave_and_one_comes_back())
def test_someone_added_back_takes_her_own_seat_again(case):
    """docs/rules.md section 10, "One change after another": two leave (ghosts take their
    seats), then one is added back: she sits in the seat the round was planned with her
    in, not the other leaver's, and everyone else is where the round was planned (the
    other leaver's seat a ghost's)."""
    last, before, ghosts, leavers, back = case
    partners, homes = round_partners(HOUSE_GHOSTS, last), homes_of(before, ghosts)
    made = itertools.count(1)
    left = step(
        HOUSE_GHOSTS,
        before,
        ghosts=ghosts,
        homes=homes,
        partners=partners,
        leaving=leavers,
        made=made,
    )
    again = step(
        HOUSE_GHOSTS,
        left.seating,
        ghosts=left.ghosts,
        homes=homes,
        partners=partners,
        arriving=[back],
        made=made,
    )
    planned, _ = seats_of(before, ghosts)
    now, _ = seats_of(again.seating, again.ghosts)
    gone = next(p for p in leavers if p != back)
    assert now == {p: where for p, where in planned.items() if p != gone}


def test_someone_added_back_takes_her_own_seat_not_another_leaver_s():
    """Table 1's B and table 2's G leave; G is added back first: her own seat, not B's."""
    before = (("A", "B", "C", "D"), ("E", "F", "G", "H"), ("I", "J", "K", "L"))
    homes, made = homes_of(before), itertools.count(1)
    left = step(
        HOUSE_GHOSTS, before, ghosts=frozenset(), homes=homes, leaving=["B", "G"], made=made
    )
    again = step(
        HOUSE_GHOSTS, left.seating, ghosts=left.ghosts, homes=homes, arriving=["G"], made=made
    )
    assert again.seating == (("A", "N1", "C", "D"), ("E", "F", "G", "H"), ("I", "J", "K", "L"))
