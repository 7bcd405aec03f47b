"""Where players sit in a round and who rolls first (docs/rules.md section 2.5)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from django.db.models import Q

from bunco_night.nights.models import Night, Round, Seat, Table
from bunco_night.nights.selectors import SeatedTable, seated_tables
from bunco_night.rules.movement import Ghost, first_roller


@dataclass(frozen=True)
class Move:
    """Where someone sits in a round: table, seat, and partner (None at a table of individuals)."""

    name: str
    table: int
    seat: int
    partner: str | None

    @property
    def head(self) -> bool:
        """At the head table."""
        return self.table == 1


def moves(
    rnd: Round, players: Collection[int] | None = None, table: Table | None = None
) -> dict[int, Move]:
    """Player id -> where they sit in ``rnd`` (only ``players``' tables if given)."""
    only = None
    if players is not None:
        only = rnd.seats.filter(Q(player_id__in=players) | Q(table=table)).values("table_id")
    result = {}
    for st in seated_tables(rnd, only=only):
        for seat, partner in st.seat_rows:
            if seat.player_id is None:
                continue
            result[seat.player_id] = Move(
                seat.player.name,
                st.table.number,
                seat.number,
                partner.occupant_name if partner is not None else None,
            )
    return result


def first_roller_seat(night: Night, rnd: Round, seated: SeatedTable) -> Seat | None:
    """The seat that rolls first at a table (docs/rules.md section 2.5); None for cards."""
    rules = night.rules_obj
    if rules.is_card_game or not seated.seats:
        return None
    count = seated.tables
    number = seated.table.number
    occupants = seated.occupants
    seating = tuple(occupants if n == number else () for n in range(1, count + 1))
    last_winner = None
    if count == 1 and rnd.number > 1:
        last_winner = (
            Seat.objects.filter(round__night=night, round__number=rnd.number - 1, won=True)
            .values_list("player_id", flat=True)
            .first()
        )
    ghosts = {o for o in occupants if isinstance(o, Ghost)}
    seat = first_roller(rules, seating, number, ghosts=ghosts, last_winner=last_winner)
    return seated.seats[seat - 1]


def next_round(night: Night, after: Round) -> Round | None:
    """The round after ``after`` if it is seated and not yet played."""
    return night.rounds.pending().seated().filter(number=after.number + 1).first()
