"""Re-seating the next round when people come and go (docs/rules.md section 10).
``replan_seating`` changes the movement's seating as little as section 10 allows. Seatings are as
in ``movement``. Why: docs/architecture.md, Design notes."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass

from .errors import RuleError
from .layouts import (
    balanced_sizes,
    buck_table_size,
    check_player_count,
    table_sizes,
)
from .movement import Seating
from .presets import FILL_GHOSTS, Rules
from .rounds import plays_teams

# Makes a new ghost's id; it is given the leaver whose seat the ghost takes, or None.
GhostMaker = Callable[[Hashable | None], Hashable]

_EMPTY = object()  # a seat a growing table adds
# Which vacant seat an incoming player takes first; seats left over get ghosts.
_LEFT, _MOVED_AWAY, _GHOST, _NEW = range(4)


@dataclass(frozen=True)
class Replan:
    """The next round's seating after people came and went; ``moved``: people (not
    arrivals) at another table than the movement gave them."""

    seating: Seating
    ghosts: frozenset[Hashable]
    added_ghosts: tuple[Hashable, ...]
    removed_ghosts: tuple[Hashable, ...]
    moved: tuple[Hashable, ...]


def round_partners(rules: Rules, seating: Seating) -> dict[Hashable, Hashable]:
    """Who partnered whom in a round's seating (both ways); nobody at a table of individuals."""
    partners: dict[Hashable, Hashable] = {}
    for occupants in seating:
        if plays_teams(rules, seats=len(occupants), tables=len(seating)):
            for a, b in ((occupants[0], occupants[2]), (occupants[1], occupants[3])):
                partners[a], partners[b] = b, a
    return partners


def _check(
    seating: Seating,
    leaving: Collection[Hashable],
    arriving: Sequence[Hashable],
    ghosts: Collection[Hashable],
) -> set[Hashable]:
    seated: set[Hashable] = set()
    for occupants in seating:
        for occupant in occupants:
            if occupant in seated:
                raise RuleError(f"{occupant!r} is seated twice.", "seated_twice")
            seated.add(occupant)
    for leaver in leaving:
        if leaver not in seated:
            raise RuleError(f"{leaver!r} is not seated.", "not_seated")
        if leaver in ghosts:
            raise RuleError("A ghost cannot leave.", "ghost_cannot_leave")
    if len(set(arriving)) != len(arriving):
        raise RuleError("Someone arrives twice.", "arrives_twice")
    for arrival in arriving:
        if arrival in seated:
            raise RuleError(f"{arrival!r} is seated already.", "already_seated")
    return seated


def _people_per_table(
    rules: Rules,
    staying: list[list[Hashable]],
    left: list[int],
    players: int,
    returning: Sequence[int] = (),
) -> tuple[list[int], list[int]]:
    """(seats, people) per table of the new seating, head table first: fewest moves,
    tables someone returns to (``returning``) first."""
    if rules.is_buck_dice:
        # Buck Dice seats everyone at its one table (docs/rules.md section 9.3).
        sizes = [buck_table_size(players)]
        return sizes, sizes
    if rules.is_card_game:
        sizes = balanced_sizes(players)
        return sizes, sizes
    if rules.fill != FILL_GHOSTS or players <= 4:
        sizes = table_sizes(players)
        return sizes, sizes
    count = -(-players // 4)
    here = [len(staying[i]) if i < len(staying) else 0 for i in range(count)]
    people = [min(4, max(2, h)) for h in here]
    excess = sum(people) - players
    # Tables stay as full as they are unless the count cannot add up: fullest, bottom first.
    while excess > 0:
        i = max((j for j in range(count) if people[j] > 2), key=lambda j: (people[j], j))
        people[i] -= 1
        excess -= 1
    # Seats to fill: most ghosts, then a home table, then one just left, bottom first.
    leavers = [left[j] if j < len(left) else 0 for j in range(count)]
    back = [sum(t == j for t in returning) for j in range(count)]
    while excess < 0:
        i = max(
            (j for j in range(count) if people[j] < 4),
            key=lambda j: (-people[j], back[j] > 0, leavers[j] > 0, j),
        )
        people[i] += 1
        back[i] -= 1
        excess += 1
    return [4] * count, people


def _members(
    rules: Rules,
    where: Mapping[Hashable, tuple[int, int]],
    gone: Collection[tuple[int, int]],
    arriving: Sequence[Hashable],
    players: int,
    back_home: Mapping[Hashable, tuple[int, int]] | None = None,
) -> tuple[list[int], list[list[Hashable]]]:
    """(seats per table, who sits at each), head first, for ``where`` (person -> (table,
    seat)) and ``arriving``: a shrinking table's last seats move; ``back_home`` go home."""
    back_home = back_home or {}
    span = max([0, *(t + 1 for t, _ in where.values()), *(t + 1 for t, _ in gone)])
    by_table: list[list[Hashable]] = [[] for _ in range(span)]
    for p in sorted(where, key=where.__getitem__):
        by_table[where[p][0]].append(p)
    left = [sum(t == i for t, _ in gone) for i in range(span)]
    returning = [back_home[p][0] for p in arriving if p in back_home]
    sizes, people = _people_per_table(rules, by_table, left, players, returning)
    count = len(sizes)
    by_table += [[] for _ in range(count - span)]
    members = [by_table[i][: people[i]] for i in range(count)]
    movers = [p for i in range(len(by_table)) for p in by_table[i][people[i] if i < count else 0 :]]
    open_seats = [people[i] - len(members[i]) for i in range(count)]
    queue = list(arriving)
    for p in arriving:  # coming back: to their home table if it has room
        home = back_home[p][0] if p in back_home else count
        if home < count and open_seats[home] > 0:
            members[home].append(p)
            queue.remove(p)
            open_seats[home] -= 1
    for i in reversed(range(count)):  # arrivals: the bottom table first
        take = min(open_seats[i], len(queue))
        members[i] += queue[:take]
        queue = queue[take:]
        open_seats[i] -= take
    for i in range(count):  # people off a shrinking or removed table: the top table first
        members[i] += movers[: open_seats[i]]
        movers = movers[open_seats[i] :]
    if movers or queue:  # cannot happen: the counts add up by construction
        raise RuleError("The seats do not match the players.", "seats_mismatch")
    return sizes, members


def _vacancy_order(
    old: Sequence[Hashable], j: int, left: bool, ghosts: Collection
) -> tuple[int, int]:
    """Seat ``j``'s rank (see ``_LEFT``): ``left`` if its planned occupant has gone."""
    occupant = old[j] if j < len(old) else _EMPTY
    if left:
        return _LEFT, j
    if occupant is _EMPTY:
        return _NEW, j
    if occupant in ghosts:
        return _GHOST, j
    return _MOVED_AWAY, j


def _repair(
    arrangement: list[Hashable],
    kept: set[Hashable],
    forbidden: Callable[[Hashable, Hashable], bool],
    number: int,
    homes: Mapping[Hashable, int] | None = None,
) -> list[Hashable]:
    """The valid pairing of a team table that moves the fewest of ``kept`` from their seats
    (one always exists, docs/rules.md section 10); ties go to the most back in ``homes``."""
    homes = homes or {}
    best = None
    for order in itertools.permutations(range(4)):
        seats = [arrangement[j] for j in order]
        if forbidden(seats[0], seats[2]) or forbidden(seats[1], seats[3]):
            continue
        shifted = [s for s in range(4) if seats[s] != arrangement[s]]
        away = [s for s in range(4) if seats[s] in homes and homes[seats[s]] != s]
        cost = (
            sum(seats[s] in kept and homes.get(seats[s]) != s for s in shifted),
            len(away),
            len(shifted),
        )
        if best is None or cost < best[0]:
            best = (cost, seats)
    if best is None:
        raise RuleError(f"Table {number}: no pairing keeps the partner rules.", "no_pairing")
    return best[1]


def _home_again(
    arrangement: list[Hashable], kept: set[Hashable], homes: Mapping[Hashable, int]
) -> list[Hashable]:
    """A table without teams: each of ``kept`` goes back to their ``homes`` seat if free."""
    seats = list(arrangement)
    moving = True
    while moving:  # each swap puts one more person home for good: at most len(seats)
        moving = False
        for person, home in homes.items():
            if home >= len(seats) or seats[home] == person:
                continue
            mine, other = seats.index(person), seats[home]
            if other not in kept or homes.get(other) == mine:
                seats[mine], seats[home] = other, person
                moving = True
    return seats


def replan_seating(
    rules: Rules,
    seating: Seating,
    *,
    leaving: Collection[Hashable] = (),
    arriving: Sequence[Hashable] = (),
    ghosts: Collection[Hashable] = frozenset(),
    new_ghost: GhostMaker | None = None,
    partners: Mapping[Hashable, Hashable] | None = None,
    homes: Mapping[Hashable, tuple[int, int]] | None = None,
) -> Replan:
    """The next round's seating when ``leaving`` go and ``arriving`` come (docs/rules.md 10).
    ``new_ghost(leaver_or_none)`` makes ghost ids; ``partners``: last round's partners;
    ``homes``: person -> (table, seat) before anyone came or went (empty: where they sit)."""
    leaving = frozenset(leaving)
    arriving = list(arriving)
    ghosts = frozenset(ghosts)
    partners = partners or {}
    homes = homes or {}
    seated = _check(seating, leaving, arriving, ghosts)
    table_now = {o: i for i, t in enumerate(seating) for o in t}
    staying = [o for t in seating for o in t if o not in ghosts and o not in leaving]
    players = check_player_count(len(staying) + len(arriving))
    # Seats whose person has gone: left now, or since the round was planned (``homes``).
    gone = {(table_now[p], seating[table_now[p]].index(p)) for p in leaving}
    gone |= {tuple(w) for p, w in homes.items() if p not in seated and p not in arriving}
    sitting = {p: (table_now[p], seating[table_now[p]].index(p)) for p in staying}
    back_home = {p: homes[p] for p in arriving if p in homes}
    sizes, members = _members(rules, sitting, gone, arriving, players, back_home)
    count = len(sizes)
    home_table = {p: homes[p][0] if p in homes else sitting[p][0] for p in staying}
    if any(sitting[p][0] != t < count for p, t in home_table.items()):
        # Someone moved earlier counts at their home table unless that moves more people.
        back = {
            p: homes.get(p, sitting[p]) if home_table[p] < count else sitting[p] for p in staying
        }
        home_members = _members(rules, back, gone, arriving, players, back_home)[1]

        def cost(members: list[list[Hashable]]) -> tuple[int, int]:
            table = {p: i for i, ps in enumerate(members) for p in ps}
            return (
                sum(table[p] not in (sitting[p][0], home_table[p]) for p in staying),
                sum(table[p] != home_table[p] for p in staying),
            )

        if cost(home_members) < cost(members):
            members = home_members

    all_ghosts = set(ghosts)
    added: dict[Hashable, None] = {}
    tables: list[tuple[Hashable, ...]] = []
    for i in range(count):
        old = tuple(seating[i]) if i < len(seating) else ()
        keep = {p for p in members[i] if p in old or home_table.get(p) == i}
        here = {
            p: seat
            for p, (table, seat) in homes.items()
            if table == i and (p in keep or p in back_home and p in members[i])
        }
        # Newcomers to the table: those coming home first, each to their home seat.
        newcomers = sorted(
            (p for p in members[i] if p not in old),
            key=lambda p, here=here: (p not in here, here.get(p, 0)),
        )
        if sizes[i] < len(old):
            # A table that becomes smaller closes up; it has no ghosts.
            arrangement = [o for o in old if o in members[i]] + newcomers
        else:
            arrangement = [o if o in members[i] else _EMPTY for o in old]
            arrangement += [_EMPTY] * (sizes[i] - len(old))
            for p in list(newcomers):
                if p in here and here[p] < len(arrangement) and arrangement[here[p]] is _EMPTY:
                    arrangement[here[p]] = p
                    newcomers.remove(p)
            vacant = sorted(
                (j for j, o in enumerate(arrangement) if o is _EMPTY),
                key=lambda j, old=old, i=i: _vacancy_order(old, j, (i, j) in gone, ghosts),
            )
            for j, person in zip(vacant, newcomers, strict=False):
                arrangement[j] = person
            for j in vacant[len(newcomers) :]:
                occupant = old[j] if j < len(old) else None
                if occupant in ghosts:
                    arrangement[j] = occupant  # a ghost keeps its seat
                    continue
                if new_ghost is None:
                    raise RuleError("Ghosts are needed: give new_ghost.", "no_ghost_maker")
                ghost = new_ghost(occupant if occupant in leaving else None)
                if ghost in seated or ghost in all_ghosts or ghost in arriving:
                    raise RuleError(f"{ghost!r} is not a new ghost.", "bad_ghost")
                all_ghosts.add(ghost)
                added[ghost] = None
                arrangement[j] = ghost
        if tuple(arrangement) != old and plays_teams(rules, seats=sizes[i], tables=count):
            keep_pairs = rules.head_partners_stay and i == 0

            def forbidden(a, b, keep_pairs=keep_pairs):
                if a in all_ghosts and b in all_ghosts:
                    return True
                return not keep_pairs and (partners.get(a) == b or partners.get(b) == a)

            arrangement = _repair(arrangement, keep, forbidden, i + 1, here)
        elif tuple(arrangement) != old:
            arrangement = _home_again(arrangement, keep, here)
        tables.append(tuple(arrangement))

    result = tuple(tables)
    now_seated = {o for t in result for o in t}
    old_table = {o: i for i, t in enumerate(seating) for o in t}
    new_table = {o: i for i, t in enumerate(result) for o in t}
    return Replan(
        seating=result,
        ghosts=frozenset(o for o in now_seated if o in all_ghosts),
        added_ghosts=tuple(o for t in result for o in t if o in added),
        removed_ghosts=tuple(o for t in seating for o in t if o in ghosts and o not in now_seated),
        moved=tuple(
            o
            for t in seating
            for o in t
            if o not in ghosts and o not in leaving and new_table[o] != old_table[o]
        ),
    )
