"""What the night pages read: nights, who plays, dues, and each round's seated tables.
``seated_tables`` asks the rules how each table plays (docs/rules.md sections 1, 3.3, 4)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

from django.db.models import Q
from django.shortcuts import get_object_or_404

from bunco_night.core.speed.compiled import ID_MARKERS, Compiled
from bunco_night.groups.models import Player
from bunco_night.groups.selectors import rules_explained
from bunco_night.rules.movement import Ghost, Seating
from bunco_night.rules.names import first_names
from bunco_night.rules.replan import round_partners
from bunco_night.rules.rounds import TableGame, table_game

from .dues import (  # noqa: F401 - where the night pages have always found them
    DuesAccount,
    DuesRow,
    DuesSummary,
    NightSeasonShare,
    Payout,
    dues_accounts,
    dues_summary,
    held_nights,
    money_record_of,
    recorded_places,
)
from .models import Attendance, Night, Payment, Round, Seat, Table
from .seat_tags import SeatTag


def night_for_host(user, pk: int) -> Night:
    """The night ``pk`` if ``user`` hosts its group, else a 404, as for a missing night."""
    return get_object_or_404(Night.objects.hosted_by(user).select_related("group"), pk=pk)


def delete_refusal(night: Night) -> tuple[str, str] | None:
    """(message, code) why ``night`` may not be deleted (started, money, chips), or None."""
    if night.rounds.started().exists():
        return "This night has started: its scores stay in the group's history.", "night_started"
    if Payment.objects.filter(attendance__night=night).exists():
        return (
            "Dues have been taken for this night: take those payments back first.",
            "night_paid",
        )
    if night.bonanza_tables.filter(steps__isnull=False).exists():
        return "Chips have been dealt in this night's Bonanza ledger, which stays.", "night_ledger"
    return None


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


def free_substitutes(night: Night) -> set[int]:
    """The group's active substitutes not on tonight's list in any way."""
    sent = night.attendances.filter(substitute__isnull=False).values("substitute_id")
    listed = Q(pk__in=night.attendances.values("player_id")) | Q(pk__in=sent)  # no NULL in NOT IN
    subs = night.group.players.filter(kind=Player.Kind.SUBSTITUTE, retired=False).exclude(listed)
    return set(subs.values_list("pk", flat=True))


def next_round_number(night: Night) -> int:
    """The number of the round to seat next."""
    last = night.rounds.closed().order_by("-number").first()
    return last.number + 1 if last else 1


def redraw_replaces(night: Night) -> str:
    """What drawing the seating again would throw away, or ''."""
    rnd = night.rounds.pending().seated().order_by("number").first()
    last = night.rounds.closed().order_by("-number").first()
    if rnd is None or last is None:
        return ""
    return (
        f"Round {rnd.number} is seated by the movement from round {last.number}'s results: "
        "winners stay, partners change. Drawing again seats everyone at random instead."
    )


def sets_change_effects(night: Night, sets: int) -> list[str]:
    """What changing to ``sets`` sets would drop or end (docs/rules.md section 8.4), or []."""
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


# The round a night is playing (bunco_night/core/speed/compiled.py).
_PLAYING_ROUND = Compiled(
    lambda night: Round.objects.playing().filter(night_id=night).order_by("number")[:1],
    ID_MARKERS[0],
)


def current_round(night: Night) -> Round | None:
    """The round ``night`` is playing, else the next one seated, else the last one closed."""
    playing = _PLAYING_ROUND.instance(night.pk)
    if playing is not None:
        playing.night = night
        return playing
    return night.rounds.pending().seated().first() or night.rounds.closed().last()


def seating_round(night: Night) -> Round | None:
    """The round whose seating the host sees: the one being played, else the next one."""
    return night.rounds.playing().first() or night.rounds.pending().order_by("number").first()


@dataclass(frozen=True)
class SeatedTable:
    """A table of a round: its seats in order and how it plays."""

    table: Table
    seats: list[Seat]
    game: TableGame
    tables: int  # how many tables the round seats
    # What the seating chart says after a seat's name, by seat id (``seat_tags.tagged``).
    tags: Mapping[int, SeatTag] = field(default_factory=dict)

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
        """Who rolls for seat ``number`` (a ghost's partner, docs/rules.md section 5.5)."""
        seat = self.seats[number - 1]
        partner = self.partner(seat) if seat.is_ghost else None
        return partner.player if partner is not None else seat.player

    @property
    def seat_rows(self) -> list[tuple[Seat, Seat | None]]:
        """Each seat with its partner's seat (None at a table of individuals)."""
        return [(s, self.partner(s)) for s in self.seats]

    @property
    def chart_rows(self) -> list[tuple[Seat, Seat | None, SeatTag | None]]:
        """Each seat with its partner's seat and its tag on the seating chart (or None)."""
        return [(s, self.partner(s), self.tags.get(s.pk)) for s in self.seats]

    def side_names(self, short: bool = False) -> list[str]:
        """Each side's names ("Ann & Cat"); ``short``: first names where unique."""
        names = [seat.occupant_name for seat in self.seats]
        if short:
            names = first_names(names, names)
        return [
            " & ".join(names[s - 1] for s in self.game.side_seats(side))
            for side in range(self.game.sides)
        ]


def seating_of(tables: list[SeatedTable]) -> Seating:
    """A round's seating as the movement rules see it, head table first."""
    return tuple(t.occupants for t in tables)


def round_before(rnd: Round) -> Round | None:
    """The round just before ``rnd``, once it is closed (else None)."""
    return Round.objects.closed().filter(night_id=rnd.night_id, number=rnd.number - 1).first()


def partners_again(rnd: Round, chart: list[SeatedTable]) -> list[tuple[str, str]]:
    """Partners of ``chart`` who were partners last round too, by name (a swap may do it:
    docs/rules.md sections 4.4, 5.3), except those section 5.4 keeps together."""
    last = round_before(rnd)
    if last is None:
        return []
    tables = seated_tables(last)
    rules = rnd.night.rules_obj
    before = round_partners(rules, seating_of(tables))
    table_of = {s.player_id: t.table.number for t in tables for s in t.seats}
    won = {s.player_id for t in tables for s in t.seats if s.won}

    def kept(t: SeatedTable, seat: Seat) -> bool:
        return (
            rules.head_partners_stay
            and t.table.number == 1
            and table_of[seat.player_id] <= 2
            and seat.player_id in won
        )

    return [
        (seat.occupant_name, partner.occupant_name)
        for t in chart
        for seat, partner in t.seat_rows
        if partner is not None
        and seat.number < partner.number
        and None not in (seat.player_id, partner.player_id)
        and before.get(seat.player_id) == partner.player_id
        and not kept(t, seat)
    ]


# A table's seats in a round, in order (bunco_night/core/speed/compiled.py).
TABLE_SEATS = Compiled(
    lambda rnd, table: (
        Seat.objects.filter(round_id=rnd, table_id=table)
        .select_related("player", "ghost_for__player")
        .order_by("number")
    ),
    *ID_MARKERS[:2],
)


def seated_tables(rnd: Round, *, only: Collection[int] | None = None) -> list[SeatedTable]:
    """The round's tables, head first, with seats; only the table ids ``only`` if given."""
    seats = rnd.seats.select_related("table", "player", "ghost_for__player").order_by(
        "table__number", "number"
    )
    if only is not None:
        seats = seats.filter(table_id__in=only)
    by_table: dict[int, list[Seat]] = {}
    for s in seats:
        by_table.setdefault(s.table_id, []).append(s)
    rules = rnd.night.rules_obj
    return [_seated(rules, row[0].table, row) for row in by_table.values()]


def table_seated(rnd: Round, table: Table) -> SeatedTable | None:
    """``table`` in ``rnd`` with its seats; None if it has none there."""
    seats = TABLE_SEATS.instances(rnd.pk, table.pk)
    return seated_from(rnd, table, seats) if seats else None


def seated_from(rnd: Round, table: Table, seats: list[Seat]) -> SeatedTable:
    """``table`` in ``rnd`` with ``seats``, its seats there in order (at least one)."""
    for s in seats:
        s.round, s.table = rnd, table
    return _seated(rnd.night.rules_obj, table, seats)


def _seated(rules, table: Table, seats: list[Seat]) -> SeatedTable:
    """``table`` with ``seats``, playing as the rules say at its size."""
    tables = seats[0].round_tables
    return SeatedTable(table, seats, table_game(rules, seats=len(seats), tables=tables), tables)


def plan_doubts(group, date, today) -> list[str]:
    """Possible slips in planning a night on ``date`` (past, or taken) to ask about."""
    day = f"{date:%A, %B} {date.day}, {date.year}"
    doubts = []
    if date < today:
        doubts.append(f"{day} is in the past.")
    if group.nights.filter(date=date).exists():
        doubts.append(f"The group already has a night on {day}.")
    return doubts


def night_rules_explained(night: Night):
    """How a night is played in words, as planned (docs/rules.md section 8.5)."""
    return rules_explained(
        night.group, night.rules_obj, sets=night.sets, prizes=night.prize_categories
    )
