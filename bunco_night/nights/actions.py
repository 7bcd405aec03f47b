"""The host's actions on a night: each its ``services`` namesake plus a history line, in one
transaction (docs/rules.md section 6.6); ``money_ok`` says yes to a money change (7.9)."""

from __future__ import annotations

import datetime as dt

from django.db import transaction

from bunco_night.core.money import format_cents
from bunco_night.core.text import is_nonce
from bunco_night.groups.models import Player

from . import history, services
from .models import Attendance, Night, Payment, Round, Seat
from .money import money_settle
from .selectors import next_round_number
from .signals import place_set_by_host

Kind = history.Kind


def _who(attendance: Attendance) -> str:
    """A place on the list by name: "Deb Moss", or "Deb Moss (sub: Sally Fox)"."""
    if attendance.substitute_id:
        return f"{attendance.player.name} (sub: {attendance.substitute.name})"
    return attendance.player.name


@transaction.atomic
def payment_record(
    *,
    attendance: Attendance,
    amount_cents: int,
    by,
    nonce: str | None = None,
    last_seen: int | None = None,
    money_ok: str = "",
) -> Payment:
    """``services.payment_record`` with history; a finished night needs ``money_ok``."""
    repeat = bool(nonce) and is_nonce(nonce) and Payment.objects.filter(nonce=nonce).exists()
    payment = services.payment_record(
        attendance=attendance, amount_cents=amount_cents, nonce=nonce, last_seen=last_seen
    )
    if not repeat:
        night = attendance.night
        history.record(
            night=night,
            by=by,
            kind=Kind.PAYMENT,
            text=f"Marked {format_cents(payment.amount_cents)} paid for {_who(attendance)}",
        )
        money_settle(night=night, by=by, money_ok=money_ok)
    return payment


@transaction.atomic
def payment_undo(*, payment: Payment, by, money_ok: str = "") -> None:
    """``services.payment_undo`` with history; a finished night needs ``money_ok``."""
    attendance = payment.attendance
    night = attendance.night
    services.payment_undo(payment=payment)
    history.record(
        night=night,
        by=by,
        kind=Kind.PAYMENT_BACK,
        text=f"Took back {format_cents(payment.amount_cents)} paid for {_who(attendance)}",
    )
    money_settle(night=night, by=by, money_ok=money_ok)


def _status_text(attendance: Attendance) -> str:
    if attendance.is_coming:
        return "coming"
    if attendance.sends_substitute:
        return f"sends a substitute: {attendance.substitute.name}"
    if attendance.has_left:
        return "left early"
    return "not coming"


def _in_play(night: Night) -> bool:
    return night.rounds.started().exists()


@transaction.atomic
def attendance_set(
    *, attendance: Attendance, by, status: str, substitute: Player | None = None
) -> Attendance:
    """``services.attendance_set``, kept in the night's history."""
    before = _status_text(attendance)
    attendance = services.attendance_set(
        attendance=attendance, status=status, substitute=substitute
    )
    place_set_by_host.send(sender=Attendance, attendance=attendance)
    after = _status_text(attendance)
    if after != before:
        night = attendance.night
        came_back = before == "left early"
        when = f", plays from round {next_round_number(night)}" if _in_play(night) else ""
        text = (
            f"{attendance.player.name} is back{when}"
            if came_back
            else f"{attendance.player.name}: {after}{when}"
        )
        history.record(night=night, by=by, kind=Kind.ARRIVAL, text=text)
    return attendance


@transaction.atomic
def attendance_send_new_substitute(
    *, attendance: Attendance, by, name: str, phone: str = "", email: str = ""
) -> Attendance:
    """``services.attendance_send_new_substitute``, kept in the night's history."""
    attendance = services.attendance_send_new_substitute(
        attendance=attendance, name=name, phone=phone, email=email
    )
    history.record(
        night=attendance.night,
        by=by,
        kind=Kind.ARRIVAL,
        text=f"{attendance.player.name}: sends a substitute, {attendance.substitute.name} "
        "(new on the roster)",
    )
    return attendance


@transaction.atomic
def guest_add(*, night: Night, by, player: Player | None = None, name: str = "") -> Attendance:
    """``services.guest_add``: a late arrival, kept in the night's history."""
    attendance = services.guest_add(night=night, player=player, name=name)
    when = f": plays from round {next_round_number(night)}" if _in_play(night) else ""
    history.record(
        night=night,
        by=by,
        kind=Kind.ARRIVAL,
        text=f"{attendance.player.name} added to the list{when}",
    )
    return attendance


@transaction.atomic
def attendance_leave(*, attendance: Attendance, by) -> Attendance | None:
    """``services.attendance_leave``: someone leaves, kept in the night's history."""
    night = attendance.night
    who = attendance.plays.name if attendance.plays else attendance.player.name
    played = night.rounds.closed().order_by("-number").first()
    left = services.attendance_leave(attendance=attendance)
    if left is None:
        text = f"{who} taken off the list"
    elif left.has_left and played is not None:
        text = f"{who} left early, after round {played.number}"
    else:
        text = f"{who} left before playing: not coming"
    history.record(night=night, by=by, kind=Kind.LEAVER, text=text)
    return left


@transaction.atomic
def night_update(
    *, night: Night, by, date: dt.date, time: dt.time | None, place: str, sets: int
) -> Night:
    """``services.night_update``, with history for a change of sets."""
    before = night.sets
    updated = services.night_update(night=night, date=date, time=time, place=place, sets=sets)
    if updated.sets != before:
        text = f"Sets: {before} → {updated.sets}"
        if updated.is_over:
            text += "; the night is over: its last round has been played"
        history.record(
            night=night, by=by, kind=Kind.FINISH if updated.is_over else Kind.ROUND, text=text
        )
    return updated


@transaction.atomic
def seating_draw(*, night: Night, by, seed: int | None = None) -> Round:
    """``services.seating_draw``, kept in the night's history."""
    rnd = services.seating_draw(night=night, seed=seed)
    history.record(
        night=night,
        by=by,
        kind=Kind.DRAW,
        text=f"Drew the seating for round {rnd.number} (seed {rnd.draw_seed})",
    )
    return rnd


@transaction.atomic
def seating_draw_undo(*, night: Night, by) -> Round:
    """``services.seating_draw_undo``, kept in the night's history."""
    rnd = services.seating_draw_undo(night=night)
    history.record(
        night=night, by=by, kind=Kind.DRAW_UNDO, text=f"Undid the draw of round {rnd.number}"
    )
    return rnd


def _seat_text(seat: Seat) -> str:
    return f"{seat.occupant_name} (table {seat.table.number}, seat {seat.number})"


@transaction.atomic
def seating_swap(*, seat_a: Seat, seat_b: Seat, by) -> None:
    """``services.seating_swap``, kept in the night's history."""
    seats = Seat.objects.select_related("table", "round", "player", "ghost_for__player")
    a, b = seats.filter(pk=seat_a.pk).first(), seats.filter(pk=seat_b.pk).first()
    services.seating_swap(seat_a=seat_a, seat_b=seat_b)
    if a is None or b is None or a.pk == b.pk:
        return
    history.record(
        night=a.round.night_id,
        by=by,
        kind=Kind.SWAP,
        text=f"Round {a.round.number}: swapped {_seat_text(a)} and {_seat_text(b)}",
    )
