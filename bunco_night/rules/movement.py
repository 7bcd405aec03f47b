"""Where everyone sits for the next round (docs/rules.md section 5). A seating is a tuple of
tables, head first, each a tuple of hashable occupants (ghosts too) from seat 1 clockwise; at a
team table seats 1+3 and 2+4 are partners."""

from __future__ import annotations

from collections.abc import Collection, Hashable, Sequence
from dataclasses import dataclass

from .errors import RuleError
from .presets import CARD_MOVEMENT, LADDER_MOVEMENT, Rules
from .rounds import partner_seat, plays_teams

Seating = tuple[tuple[Hashable, ...], ...]
TEAMS = ((1, 3), (2, 4))


@dataclass(frozen=True)
class Ghost:
    """An empty seat played by its partner (docs/rules.md section 5.5), for ``stands_for``."""

    stands_for: Hashable | None
    number: int


def partner_of(seating: Seating, player: Hashable, rules: Rules) -> Hashable | None:
    """``player``'s partner this round, or None at a table of individuals."""
    table, seat = seat_of(seating, player)
    occupants = seating[table - 1]
    if not plays_teams(rules, seats=len(occupants), tables=len(seating)):
        return None
    return occupants[partner_seat(seat) - 1]


def seat_of(seating: Seating, player: Hashable) -> tuple[int, int]:
    """(table number, seat number) of ``player``, both from 1."""
    for t, occupants in enumerate(seating, start=1):
        for s, occupant in enumerate(occupants, start=1):
            if occupant == player:
                return t, s
    raise RuleError(f"{player!r} is not seated.", "not_seated")


def _check_winners(rules: Rules, seating: Seating, winners: Sequence[Collection[int]]) -> None:
    if len(winners) != len(seating):
        raise RuleError("Give the winners of every table.", "missing_winners")
    for number, (occupants, won) in enumerate(zip(seating, winners, strict=True), start=1):
        seats = set(won)
        if plays_teams(rules, seats=len(occupants), tables=len(seating)):
            if tuple(sorted(seats)) not in TEAMS:
                raise RuleError(f"Table {number}: the winners are one team.", "bad_winners")
        elif len(seats) != 1 or not seats <= set(range(1, len(occupants) + 1)):
            raise RuleError(f"Table {number}: one player wins.", "bad_winners")


def _seat_four(
    stayers: list[Hashable], arrivals: list[Hashable], ghosts: Collection, keep_pairs: bool
) -> tuple[Hashable, ...]:
    """Seat two stayers and two arrivals at a team table as new partners (section 5), or
    as the same pairs with ``keep_pairs`` (docs/rules.md section 5.4)."""
    a, b = stayers
    x, y = arrivals
    if keep_pairs:
        return (a, x, b, y)
    if (a in ghosts and x in ghosts) or (b in ghosts and y in ghosts):
        x, y = y, x
    return (a, b, x, y)


def next_seating(
    rules: Rules,
    seating: Seating,
    winners: Sequence[Collection[int]],
    ghosts: Collection[Hashable] = frozenset(),
) -> Seating:
    """The seating for the next round, given each table's winning seat numbers (section 5)."""
    _check_winners(rules, seating, winners)
    count = len(seating)
    if count == 1:
        return tuple(tuple(t) for t in seating)
    if rules.movement == CARD_MOVEMENT:
        return _card_movement(seating, winners)

    stay: list[list[Hashable]] = []
    leave: list[list[Hashable]] = []
    for occupants, won in zip(seating, winners, strict=True):
        won_seats = set(won)
        winners_here = [p for s, p in enumerate(occupants, 1) if s in won_seats]
        losers_here = [p for s, p in enumerate(occupants, 1) if s not in won_seats]
        if rules.movement == LADDER_MOVEMENT and len(stay) > 0:
            stay.append(losers_here)
            leave.append(winners_here)
        elif len(occupants) == 2:
            stay.append([])
            leave.append(losers_here + winners_here)
        else:
            stay.append(winners_here)
            leave.append(losers_here)

    if rules.movement == LADDER_MOVEMENT:
        if any(len(t) != 4 for t in seating):
            raise RuleError("Ladder movement needs tables of four.", "ladder_needs_four")
        # Table 1 gets Table 2's winners; the bottom table gets Table 1's losers.
        arrivals = [leave[1]] + [leave[i + 1] for i in range(1, count - 1)] + [leave[0]]
    else:
        arrivals = [leave[i - 1] for i in range(count)]

    result = []
    for number, (occupants, stayers, coming) in enumerate(
        zip(seating, stay, arrivals, strict=True), start=1
    ):
        if len(occupants) == 4:
            keep = rules.head_partners_stay and number == 1
            result.append(_seat_four(stayers, coming, ghosts, keep))
        else:
            result.append(tuple(stayers + coming))
    return tuple(result)


def _card_movement(seating: Seating, winners: Sequence[Collection[int]]) -> Seating:
    count = len(seating)
    seats = [list(t) for t in seating]
    win_seat = [next(iter(w)) for w in winners]
    movers = [seating[i][win_seat[i] - 1] for i in range(count)]
    for i in range(count):
        seats[i][win_seat[i] - 1] = movers[i - 1]
    return tuple(tuple(t) for t in seats)


def ghost_seats(seats: int, ghosts: int) -> tuple[int, ...]:
    """Where a table's ghosts sit: seat 4, then seat 3, so two ghosts are on opposite teams."""
    if ghosts > 2 or (ghosts and seats != 4):
        raise RuleError("A table of four has at most two ghosts.", "too_many_ghosts")
    return (4, 3)[:ghosts]


def seat_players(
    sizes: Sequence[tuple[int, int]], players: Sequence[Hashable], ghosts: Sequence[Hashable]
) -> Seating:
    """Seat ``players`` in order by ``sizes`` ((seats, ghosts) per table, head first)."""
    people, spirits = list(players), list(ghosts)
    if sum(s - g for s, g in sizes) != len(people) or sum(g for _, g in sizes) != len(spirits):
        raise RuleError("The seats do not match the players.", "seats_mismatch")
    seating = []
    for seats, ghost_count in sizes:
        taken = ghost_seats(seats, ghost_count)
        seating.append(
            tuple(spirits.pop(0) if s in taken else people.pop(0) for s in range(1, seats + 1))
        )
    return tuple(seating)


def first_roller(
    rules: Rules,
    seating: Seating,
    table: int,
    *,
    ghosts: Collection[Hashable] = frozenset(),
    last_winner: Hashable | None = None,
) -> int:
    """The seat that rolls first at ``table`` (from 1) this round (docs/rules.md section 2.5)."""
    if not 1 <= table <= len(seating):
        raise RuleError(f"There is no table {table}.", "bad_table")
    occupants = seating[table - 1]
    people = [s for s, p in enumerate(occupants, start=1) if p not in ghosts]
    if not people:
        raise RuleError(f"Table {table} has nobody to roll.", "bad_table")
    if len(seating) == 1 and last_winner is not None and last_winner in occupants:
        won = occupants.index(last_winner) + 1
        return next((s for s in people if s > won), people[0])
    return people[0]
