"""Planning a night: attendance, substitutes, ghosts, dues and seating (each one transaction).

Services load rows, call the rules engine with plain values and save what comes
back (STYLE.md habits 2-3). A ``ServiceError`` says what cannot be done.
"""

from __future__ import annotations

import datetime as dt
import random
import secrets
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import F, Sum

from bunco_night.core.errors import ServiceError
from bunco_night.core.text import column_check, is_nonce
from bunco_night.groups.models import Group, Player
from bunco_night.groups.services import player_add
from bunco_night.rules.errors import RuleError
from bunco_night.rules.layouts import plan_layout, plays_teams, table_target
from bunco_night.rules.movement import seat_players
from bunco_night.rules.standings import split_pot

from .models import Attendance, Night, Payment, Round, Seat, Table


def night_touch(night: Night) -> None:
    """Bump the night's version so polling pages know something changed."""
    Night.objects.filter(pk=night.pk).update(version=F("version") + 1)
    night.refresh_from_db(fields=["version"])


@transaction.atomic
def night_create(
    *,
    group: Group,
    date: dt.date,
    time: dt.time | None = None,
    place: str = "",
    sets: int | None = None,
) -> Night:
    """Plan a night: the group's rules and dues are copied, every active regular is coming."""
    rules = group.rules_obj
    sets = rules.sets_per_night if sets is None else sets
    if not 1 <= sets <= 12:
        raise ServiceError("A night has 1 to 12 sets.", "bad_sets", "sets")
    place = column_check(Night, "place", place.strip(), label="The place")
    night = Night.objects.create(
        group=group,
        date=date,
        time=time,
        place=place,
        sets=sets,
        rules=rules.as_dict(),
        dues_cents=group.dues_cents,
    )
    regulars = group.players.filter(kind=Player.REGULAR, retired=False)
    Attendance.objects.bulk_create([Attendance(night=night, player=p) for p in regulars])
    return night


@transaction.atomic
def night_update(
    *, night: Night, date: dt.date, time: dt.time | None, place: str, sets: int
) -> Night:
    """Change when and where, or how many sets, before the night is over."""
    if night.status == Night.FINISHED:
        raise ServiceError("This night is over.", "night_over")
    if not 1 <= sets <= 12:
        raise ServiceError("A night has 1 to 12 sets.", "bad_sets", "sets")
    played = night.rounds.exclude(status=Round.PENDING).order_by("-number").first()
    per_set = night.rules_obj.rounds_per_set
    if played is not None and played.number > sets * per_set:
        needed = -(-played.number // per_set)
        raise ServiceError(
            f"Round {played.number} has been played: this night needs at least {needed} sets.",
            "sets_below_played",
            "sets",
        )
    place = column_check(Night, "place", place.strip(), label="The place")
    night.date, night.time, night.place, night.sets = date, time, place, sets
    night.save(update_fields=["date", "time", "place", "sets"])
    # A round seated beyond the new last round is never played.
    night.rounds.filter(status=Round.PENDING, number__gt=sets * per_set).delete()
    if played is not None and played.status == Round.CLOSED and played.number == sets * per_set:
        night.status = Night.FINISHED  # the last round of the shorter night is played
        night.save(update_fields=["status"])
    night_touch(night)
    return night


def _lock(night: Night) -> Night:
    """Serialise changes to one night (the database lock is the guard, not the process)."""
    return Night.objects.select_for_update().get(pk=night.pk)


def _check_between_rounds(night: Night) -> None:
    if night.status == Night.FINISHED:
        raise ServiceError("This night is over.", "night_over")
    if night.rounds.filter(status=Round.PLAYING).exists():
        raise ServiceError(
            "A round is being played: change who plays once it is over.", "round_in_play"
        )


def _clear_pending_seating(night: Night) -> None:
    """Who plays changed: the next round's seating must be drawn again."""
    Seat.objects.filter(round__night=night, round__status=Round.PENDING).delete()


def _playing_ids(night: Night, exclude: Attendance | None = None) -> set[int]:
    ids = set()
    for a in night.attendances.exclude(pk=getattr(exclude, "pk", None)):
        ids.add(a.player_id)
        if a.substitute_id:
            ids.add(a.substitute_id)
    return ids


@transaction.atomic
def attendance_set(
    *, attendance: Attendance, status: str, substitute: Player | None = None
) -> Attendance:
    """Say whether a regular comes, sends a substitute, or sends nobody."""
    night = _lock(attendance.night)
    _check_between_rounds(night)
    if status not in (Attendance.COMING, Attendance.SENT_SUB, Attendance.ABSENT):
        raise ServiceError(
            "Choose coming, sends a substitute, or not coming.", "bad_status", "status"
        )
    if status == Attendance.SENT_SUB:
        if substitute is None:
            raise ServiceError(
                "Pick the substitute, or add a new one.", "no_substitute", "substitute"
            )
        if substitute.group_id != night.group_id:
            raise ServiceError("That substitute is not in this group.", "other_group", "substitute")
        if substitute.pk == attendance.player_id:
            raise ServiceError(
                "A player cannot substitute for themselves.", "self_substitute", "substitute"
            )
        if substitute.retired:
            raise ServiceError(f"{substitute} is retired.", "retired", "substitute")
        if substitute.pk in _playing_ids(night, exclude=attendance):
            raise ServiceError(
                f"{substitute} is already on tonight's list.", "already_playing", "substitute"
            )
    elif substitute is not None:
        raise ServiceError(
            "Only someone who is not coming sends a substitute.", "sub_for_coming", "substitute"
        )
    attendance.status = status
    attendance.substitute = substitute if status == Attendance.SENT_SUB else None
    attendance.save(update_fields=["status", "substitute"])
    _clear_pending_seating(night)
    night_touch(attendance.night)
    return attendance


@transaction.atomic
def attendance_send_new_substitute(
    *, attendance: Attendance, name: str, phone: str = "", email: str = ""
) -> Attendance:
    """Add a new substitute to the roster on the spot and send them."""
    sub = player_add(
        group=attendance.night.group, name=name, kind=Player.SUBSTITUTE, phone=phone, email=email
    )
    return attendance_set(attendance=attendance, status=Attendance.SENT_SUB, substitute=sub)


@transaction.atomic
def guest_add(*, night: Night, player: Player) -> Attendance:
    """Someone not on tonight's list comes (a late arrival, a substitute playing for the pot)."""
    night = _lock(night)
    _check_between_rounds(night)
    if player.group_id != night.group_id:
        raise ServiceError("That player is not in this group.", "other_group", "player")
    if player.retired:
        raise ServiceError(f"{player} is retired.", "retired", "player")
    if player.pk in _playing_ids(night):
        raise ServiceError(f"{player} is already on tonight's list.", "already_playing", "player")
    attendance = Attendance.objects.create(night=night, player=player)
    _clear_pending_seating(night)
    night_touch(night)
    return attendance


@transaction.atomic
def attendance_leave(*, attendance: Attendance) -> Attendance | None:
    """Someone leaves between rounds. With no round played, a guest's row goes away;
    anyone who has played is kept (as left early) with their history and dues."""
    night = _lock(attendance.night)
    _check_between_rounds(night)
    played = Seat.objects.filter(
        round__night=night, round__status=Round.CLOSED, player=attendance.plays
    ).exists()
    if not played and not attendance.player.is_regular and not attendance.payments.exists():
        attendance.delete()
        result = None
    else:
        attendance.status = Attendance.LEFT if played else Attendance.ABSENT
        attendance.substitute = None
        attendance.save(update_fields=["status", "substitute"])
        result = attendance
    _clear_pending_seating(night)
    night_touch(night)
    return result


@transaction.atomic
def payment_record(
    *, attendance: Attendance, amount_cents: int, nonce: str | None = None
) -> Payment:
    """The host took money for an attendance's dues; a repeated ``nonce`` records it once."""
    if nonce and not is_nonce(nonce):
        raise ServiceError("This form has no valid id: reload the page.", "bad_nonce")
    if nonce:
        existing = Payment.objects.filter(nonce=nonce).first()
        if existing is not None:
            return existing
    if amount_cents <= 0:
        raise ServiceError("Enter an amount above zero.", "bad_amount", "amount")
    if amount_cents > 100_000:
        raise ServiceError("That is more than $1,000: check the amount.", "bad_amount", "amount")
    # NO KEY UPDATE: a plain FOR UPDATE would also block the foreign-key check of a
    # ghost's seat for this attendance (PostgreSQL checks it when a round close
    # commits, after the close bumped the night this payment bumps next): a deadlock.
    Attendance.objects.select_for_update(no_key=True).filter(pk=attendance.pk).first()
    try:
        with transaction.atomic():
            payment = Payment.objects.create(
                attendance=attendance, amount_cents=amount_cents, nonce=nonce or None
            )
    except IntegrityError:
        return Payment.objects.get(nonce=nonce)
    night_touch(attendance.night)
    return payment


@transaction.atomic
def payment_undo(*, payment: Payment) -> None:
    """Take back a payment entered by mistake."""
    night = payment.attendance.night
    payment.delete()
    night_touch(night)


@dataclass(frozen=True)
class DuesRow:
    attendance: Attendance
    owes_cents: int
    paid_cents: int

    @property
    def balance_cents(self) -> int:
        """Still to pay (negative: paid too much)."""
        return self.owes_cents - self.paid_cents


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
        return sum(max(r.balance_cents, 0) for r in self.rows)


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


def players_tonight(night: Night) -> list[Player]:
    """Everyone who sits at a table tonight, in list order."""
    attendances = night.attendances.select_related("player", "substitute").order_by("pk")
    return [a.plays for a in attendances if a.plays is not None]


def next_round_number(night: Night) -> int:
    """The number of the round to seat next."""
    last = night.rounds.filter(status=Round.CLOSED).order_by("-number").first()
    return last.number + 1 if last else 1


def total_rounds(night: Night) -> int:
    """Rounds in the whole night."""
    return night.sets * night.rules_obj.rounds_per_set


def round_mark(night: Night, number: int, rng: random.Random) -> int | None:
    """The mark of round ``number``: marks in order per set, or drawn with a die."""
    rules = night.rules_obj
    if rules.is_card_game:
        return None
    if rules.draw_mark_with_die:
        return rng.randint(1, 6)
    return rules.marks[(number - 1) % len(rules.marks)]


def tables_sync(night: Night, sizes: list[int]) -> list[Table]:
    """Make the night's active tables match ``sizes`` (head table first)."""
    tables = {t.number: t for t in night.tables.all()}
    result = []
    for number, seats in enumerate(sizes, start=1):
        table = tables.get(number)
        if table is None:
            table = Table.objects.create(night=night, number=number, seats=seats)
        elif table.seats != seats or not table.active:
            table.seats, table.active = seats, True
            table.save(update_fields=["seats", "active"])
        result.append(table)
    night.tables.filter(number__gt=len(sizes)).update(active=False)
    return result


@transaction.atomic
def seating_draw(*, night: Night, seed: int | None = None) -> Round:
    """Seat everyone at random for the next round (seeded, so a re-draw is reproducible).

    The layout follows RULES.md section 4 for the number present and the group's
    choice of small tables or ghosts; ghosts stand in for absent regulars.
    """
    night = _lock(night)
    _check_between_rounds(night)
    number = next_round_number(night)
    if number > total_rounds(night):
        raise ServiceError("Every round of the night has been played.", "night_complete")
    players = players_tonight(night)
    try:
        layout = plan_layout(len(players), night.rules_obj)
    except RuleError as error:
        raise ServiceError(error.message, error.code) from error
    seed = secrets.randbelow(2**31) if seed is None else seed
    rng = random.Random(seed)
    order = [p.pk for p in players]
    rng.shuffle(order)
    absent = list(
        night.attendances.filter(status=Attendance.ABSENT, player__kind=Player.REGULAR)
        .order_by("player__name")
        .values_list("pk", flat=True)
    )
    ghosts = [("ghost", absent[i] if i < len(absent) else None, i) for i in range(layout.ghosts)]
    seating = seat_players([(t.seats, t.ghosts) for t in layout.tables], order, ghosts)
    tables = tables_sync(night, layout.sizes)
    rules = night.rules_obj
    rnd, _ = Round.objects.get_or_create(
        night=night,
        number=number,
        defaults={"set_number": (number - 1) // rules.rounds_per_set + 1},
    )
    rnd.mark = round_mark(night, number, rng)
    rnd.save(update_fields=["mark"])
    seats_save(rnd, tables, seating)
    night.seed = seed
    night.save(update_fields=["seed"])
    night_touch(night)
    return rnd


def seats_save(rnd: Round, tables: list[Table], seating) -> None:
    """Replace a round's seats with ``seating`` (player ids, or ghost tuples)."""
    rnd.seats.all().delete()
    rows = []
    for table, occupants in zip(tables, seating, strict=True):
        for number, occupant in enumerate(occupants, start=1):
            ghost = isinstance(occupant, tuple)
            rows.append(
                Seat(
                    round=rnd,
                    table=table,
                    table_seats=table.seats,
                    number=number,
                    player_id=None if ghost else occupant,
                    ghost_for_id=occupant[1] if ghost else None,
                )
            )
    Seat.objects.bulk_create(rows)


@transaction.atomic
def seating_swap(*, seat_a: Seat, seat_b: Seat) -> None:
    """Swap two seats of a round that has not started (seating arranged by hand)."""
    if seat_a.round_id != seat_b.round_id:
        raise ServiceError("Both seats must be in the same round.", "other_round")
    rnd = Round.objects.select_for_update().get(pk=seat_a.round_id)
    if rnd.status != Round.PENDING:
        raise ServiceError("Seats can be changed only before the round starts.", "round_started")
    if seat_a.pk == seat_b.pk:
        return
    a_player, a_ghost = seat_a.player_id, seat_a.ghost_for_id
    b_player, b_ghost = seat_b.player_id, seat_b.ghost_for_id
    Seat.objects.filter(pk=seat_a.pk).update(player=None, ghost_for=None)
    Seat.objects.filter(pk=seat_b.pk).update(player_id=a_player, ghost_for_id=a_ghost)
    Seat.objects.filter(pk=seat_a.pk).update(player_id=b_player, ghost_for_id=b_ghost)
    _check_no_ghost_partners(rnd)
    night_touch(rnd.night)


def _check_no_ghost_partners(rnd: Round) -> None:
    """RULES.md section 5: two ghosts are never partners."""
    for table in rnd.night.tables.filter(active=True, seats=4):
        ghosts = set(
            rnd.seats.filter(table=table, player__isnull=True).values_list("number", flat=True)
        )
        if {1, 3} <= ghosts or {2, 4} <= ghosts:
            raise ServiceError("Two ghosts cannot be partners.", "ghost_partners")


@dataclass(frozen=True)
class ChartSeat:
    seat: Seat
    name: str
    ghost: bool
    partner: str | None


@dataclass(frozen=True)
class ChartTable:
    table: Table
    teams: bool
    target: int
    seats: list[ChartSeat]


def seat_name(seat: Seat) -> str:
    """A seat's occupant as people see it."""
    if seat.player_id:
        return seat.player.name
    if seat.ghost_for_id:
        return f"Ghost (for {seat.ghost_for.player.name})"
    return "Ghost"


def seating_chart(rnd: Round) -> list[ChartTable]:
    """Tables, head table first, with seats, partners and ghosts."""
    rules = rnd.night.rules_obj
    seats = list(
        rnd.seats.select_related("player", "table", "ghost_for__player").order_by(
            "table__number", "number"
        )
    )
    by_table: dict[int, list[Seat]] = {}
    for s in seats:
        by_table.setdefault(s.table.number, []).append(s)
    count = len(by_table)
    chart = []
    for row in by_table.values():
        size = len(row)
        teams = plays_teams(rules, seats=size, tables=count)
        names = [seat_name(s) for s in row]
        chart_seats = [
            ChartSeat(s, names[i], s.player_id is None, names[(i + 2) % 4] if teams else None)
            for i, s in enumerate(row)
        ]
        target = table_target(rules, seats=size, teams=teams, tables=count)
        chart.append(ChartTable(row[0].table, teams, target, chart_seats))
    return chart
