"""A group's nights as CSV rows: the nights, who came, dues paid, rounds and seats."""

from __future__ import annotations

from bunco_night.core.money import cents_text
from bunco_night.groups.models import Group

from .models import Attendance, Payment, Round, Seat

NIGHTS_HEADER = ["id", "date", "time", "place", "sets", "status", "dues", "rules"]
ATTENDANCE_HEADER = ["night_id", "date", "player", "status", "substitute"]
PAYMENTS_HEADER = ["night_id", "date", "player", "amount", "paid_at"]
ROUNDS_HEADER = ["night_id", "date", "round", "set", "mark", "status", "started_at", "closed_at"]
SEATS_HEADER = [
    "night_id",
    "date",
    "round",
    "table",
    "seat",
    "player",
    "won",
    "buncos",
    "mini_buncos",
]


def night_rows(group: Group):
    for n in group.nights.order_by("date", "pk"):
        yield [
            n.pk,
            n.date.isoformat(),
            n.time.strftime("%H:%M") if n.time else "",
            n.place,
            n.sets,
            n.status,
            cents_text(n.dues_cents),
            n.rules.get("name", "") if isinstance(n.rules, dict) else "",
        ]


def attendance_rows(group: Group):
    rows = Attendance.objects.filter(night__group=group).select_related(
        "night", "player", "substitute"
    )
    for a in rows.order_by("night__date", "night_id", "player__name"):
        yield [
            a.night_id,
            a.night.date.isoformat(),
            a.player.name,
            a.status,
            a.substitute.name if a.substitute else "",
        ]


def payment_rows(group: Group):
    rows = Payment.objects.filter(attendance__night__group=group).select_related(
        "attendance__night", "attendance__player"
    )
    for p in rows.order_by("attendance__night__date", "created", "pk"):
        yield [
            p.attendance.night_id,
            p.attendance.night.date.isoformat(),
            p.attendance.player.name,
            cents_text(p.amount_cents),
            p.created.isoformat(timespec="seconds"),
        ]


def round_rows(group: Group):
    rows = Round.objects.filter(night__group=group).select_related("night")
    for r in rows.order_by("night__date", "night_id", "number"):
        yield [
            r.night_id,
            r.night.date.isoformat(),
            r.number,
            r.set_number,
            r.mark,
            r.status,
            r.started_at.isoformat(timespec="seconds") if r.started_at else "",
            r.closed_at.isoformat(timespec="seconds") if r.closed_at else "",
        ]


def seat_rows(group: Group):
    rows = Seat.objects.filter(round__night__group=group).select_related(
        "round__night", "table", "player", "ghost_for__player"
    )
    for s in rows.order_by(
        "round__night__date", "round__night_id", "round__number", "table__number", "number"
    ):
        yield [
            s.round.night_id,
            s.round.night.date.isoformat(),
            s.round.number,
            s.table.number,
            s.number,
            s.occupant_name,
            "" if s.won is None else s.won,
            s.buncos,
            s.mini_buncos,
        ]
