"""What the night pages read: the nights a host may see, who plays tonight, dues and the
pot, and each round's tables with their seats.

``seated_tables`` is the one bridge between a round's seat rows and the rules: it asks
the rules once per table whether it plays in teams, its target, its sides and who
partners whom (docs/rules.md sections 1, 3.3 and 4).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Sum
from django.shortcuts import get_object_or_404

from bunco_night.groups.models import Player
from bunco_night.rules.errors import RuleError
from bunco_night.rules.layouts import TableGame, table_game
from bunco_night.rules.movement import Ghost, Seating
from bunco_night.rules.standings import split_pot

from .models import Attendance, Night, Round, Seat, Table


def night_for_host(user, pk: int) -> Night:
    """The night ``pk`` if ``user`` hosts its group, else a 404, as for a missing night."""
    return get_object_or_404(Night.objects.hosted_by(user).select_related("group"), pk=pk)


def attendance_of(night: Night, pk: int) -> Attendance:
    """An attendance row of ``night``, else a 404."""
    return get_object_or_404(
        Attendance.objects.select_related("player", "substitute", "night__group"),
        pk=pk,
        night=night,
    )


def players_tonight(night: Night) -> list[Player]:
    """Everyone who sits at a table tonight, in list order."""
    attendances = night.attendances.select_related("player", "substitute").order_by("pk")
    return [a.plays for a in attendances if a.plays is not None]


def next_round_number(night: Night) -> int:
    """The number of the round to seat next."""
    last = night.rounds.closed().order_by("-number").first()
    return last.number + 1 if last else 1


def redraw_replaces(night: Night) -> str:
    """What drawing the seating again would throw away, when a host should be asked first
    (the movement seated the next round from a round played); '' when nothing is lost."""
    rnd = night.rounds.pending().seated().order_by("number").first()
    last = night.rounds.closed().order_by("-number").first()
    if rnd is None or last is None:
        return ""
    return (
        f"Round {rnd.number} is seated by the movement from round {last.number}'s results: "
        "winners stay, partners change. Drawing again seats everyone at random instead."
    )


def sets_change_effects(night: Night, sets: int) -> list[str]:
    """What changing the night to ``sets`` sets would do that a host should agree to first:
    seatings dropped, and the night ending (docs/rules.md section 8.4). [] when nothing."""
    if sets >= night.sets:
        return []
    last = night.rules_obj.rounds_for(sets)
    effects = [
        f"Round {r.number} is already seated: that seating is dropped and the round is not played."
        for r in night.rounds.pending().seated().filter(number__gt=last)
    ]
    played = night.rounds.started().order_by("-number").first()
    if played is not None and played.number == last:
        if played.is_closed:
            effects.append(
                f"The night ends now: round {last}, the last round of {sets} set"
                f"{'s' if sets != 1 else ''}, has been played. This cannot be undone."
            )
        else:
            effects.append(f"Round {last}, being played now, becomes the night's last round.")
    return effects


def seating_round(night: Night) -> Round | None:
    """The round whose seating the host sees: the one being played, else the next one."""
    return night.rounds.playing().first() or night.rounds.pending().order_by("number").first()


# ---------------------------------------------------------------------------
# A round's tables and seats


@dataclass(frozen=True)
class SeatedTable:
    """A table of a round: its seats in order and how it plays."""

    table: Table
    seats: list[Seat]
    game: TableGame

    @property
    def teams(self) -> bool:
        return self.game.teams

    @property
    def target(self) -> int:
        return self.game.target

    @property
    def size(self) -> int:
        return len(self.seats)

    def partner(self, seat: Seat) -> Seat | None:
        """The seat across from ``seat`` at a team table, else None."""
        number = self.game.partner_seat(seat.number)
        return self.seats[number - 1] if number else None

    @property
    def occupants(self) -> tuple:
        """The table as the movement rules see it: player ids, and a ``Ghost`` per ghost seat."""
        return tuple(s.player_id or Ghost(s.ghost_for_id, s.pk) for s in self.seats)

    def roller(self, number: int) -> Player | None:
        """Who rolls for seat ``number``: its player, or a ghost's partner
        (docs/rules.md section 5.5)."""
        seat = self.seats[number - 1]
        partner = self.partner(seat) if seat.is_ghost else None
        return partner.player if partner is not None else seat.player

    @property
    def seat_rows(self) -> list[tuple[Seat, Seat | None]]:
        """Each seat with its partner's seat (None at a table of individuals)."""
        return [(s, self.partner(s)) for s in self.seats]

    def side_names(self) -> list[str]:
        """Each side as people see it: "Ann & Cat" for a team, the player otherwise."""
        return [
            " & ".join(self.seats[s - 1].occupant_name for s in self.game.side_seats(side))
            for side in range(self.game.sides)
        ]


def seating_of(tables: list[SeatedTable]) -> Seating:
    """A round's seating as the movement rules see it, head table first."""
    return tuple(t.occupants for t in tables)


def table_count(rnd: Round) -> int:
    """How many tables a round seats."""
    return rnd.seats.values("table_id").distinct().count()


def seated_tables(rnd: Round, *, table: Table | None = None) -> list[SeatedTable]:
    """The round's tables, head table first, each with its seats (only ``table`` if given)."""
    seats = rnd.seats.select_related("table", "player", "ghost_for__player").order_by(
        "table__number", "number"
    )
    if table is not None:
        seats = seats.filter(table=table)
    by_table: dict[int, list[Seat]] = {}
    for s in seats:
        by_table.setdefault(s.table_id, []).append(s)
    count = len(by_table) if table is None else table_count(rnd)
    rules = rnd.night.rules_obj
    return [
        SeatedTable(row[0].table, row, table_game(rules, seats=len(row), tables=count))
        for row in by_table.values()
    ]


# ---------------------------------------------------------------------------
# Dues and the pot (docs/rules.md sections 7.4 and 8)


@dataclass(frozen=True)
class DuesRow:
    attendance: Attendance
    owes_cents: int
    paid_cents: int

    @property
    def balance_cents(self) -> int:
        """Still to pay (negative: paid too much)."""
        return self.owes_cents - self.paid_cents

    @property
    def due_cents(self) -> int:
        """Still to pay, or 0."""
        return max(self.balance_cents, 0)

    @property
    def overpaid_cents(self) -> int:
        """Paid beyond the dues, or 0."""
        return max(-self.balance_cents, 0)


@dataclass(frozen=True)
class Payout:
    code: str
    title: str
    amount_cents: int


@dataclass(frozen=True)
class DuesSummary:
    rows: list[DuesRow]
    expected_cents: int
    collected_cents: int
    payouts: list[Payout]
    payout_error: str

    @property
    def outstanding_cents(self) -> int:
        """Dues still owed."""
        return sum(r.due_cents for r in self.rows)


def dues_summary(night: Night) -> DuesSummary:
    """Who owes, who paid, the pot (the dues collected) and each prize's payout."""
    attendances = night.attendances.select_related("player", "substitute").annotate(
        paid=Sum("payments__amount_cents")
    )
    rows = [DuesRow(a, night.dues_cents if a.owes_dues else 0, a.paid or 0) for a in attendances]
    collected = sum(r.paid_cents for r in rows)
    prizes = list(night.group.prizes.all())
    payouts, error = [], ""
    try:
        shares = split_pot(collected, [p.as_category() for p in prizes])
        payouts = [Payout(p.code, p.get_code_display(), shares[p.code]) for p in prizes]
    except RuleError as exc:
        error = exc.message
    return DuesSummary(rows, sum(r.owes_cents for r in rows), collected, payouts, error)
