"""Dues taken, and paid ahead (docs/rules.md section 8.6), and taking either back."""

from __future__ import annotations

import datetime as dt

from django.db import IntegrityError, transaction

from bunco_night.core.errors import Gone, ServiceError
from bunco_night.core.text import is_nonce
from bunco_night.groups.models import Player

from ..models import Attendance, Night, Payment, Prepayment
from .nights import _bad_form_id, night_touch


@transaction.atomic
def payment_record(
    *,
    attendance: Attendance,
    amount_cents: int,
    nonce: str | None = None,
    last_seen: int | None = None,
) -> Payment:
    """The host took money for an attendance's dues; a repeated ``nonce`` records it once.
    ``last_seen``: the latest payment the page showed (0: none); refused if out of date."""
    if nonce and not is_nonce(nonce):
        raise _bad_form_id()
    # NO KEY UPDATE: FOR UPDATE would block a ghost seat's foreign-key check at a round
    # close's commit on PostgreSQL, which holds the night this payment bumps: a deadlock.
    if Attendance.objects.select_for_update(no_key=True).filter(pk=attendance.pk).first() is None:
        raise Gone(
            "That place on the night's list is gone: the night was deleted, or the guest left."
        )
    # Looked up once the attendance is held, so a retry racing its first send finds it.
    if nonce:
        existing = Payment.objects.filter(nonce=nonce).first()
        if existing is not None:
            return existing
    if amount_cents <= 0:
        raise ServiceError("Enter an amount above zero.", "bad_amount", "amount")
    if amount_cents > 100_000:
        raise ServiceError("That is more than $1,000: check the amount.", "bad_amount", "amount")
    if last_seen is not None and last_seen != _last_payment_id(attendance):
        raise ServiceError(
            f"{attendance.player.name}'s dues changed since this page was drawn (another tab "
            "or a co-host): here they are now. Tap again if there is more to take.",
            "dues_changed",
        )
    try:
        with transaction.atomic():
            payment = Payment.objects.create(
                attendance=attendance, amount_cents=amount_cents, nonce=nonce or None
            )
    except IntegrityError:
        return Payment.objects.get(nonce=nonce)
    night_touch(attendance.night)
    return payment


def _last_payment_id(attendance: Attendance) -> int:
    """The id of the attendance's latest payment, as the night page shows it; 0: none."""
    latest = attendance.payments.order_by("-created", "-pk").values_list("pk", flat=True)
    return latest.first() or 0


@transaction.atomic
def payment_undo(*, payment: Payment) -> None:
    """Take back a payment entered by mistake."""
    night = payment.attendance.night
    payment.delete()
    night_touch(night)


@transaction.atomic
def prepayment_record(
    *,
    player: Player,
    amount_cents: int,
    starts: dt.date,
    note: str = "",
    nonce: str | None = None,
) -> Prepayment:
    """Dues paid ahead, for nights from ``starts`` on; a repeated ``nonce`` records once."""
    if nonce:
        existing = Prepayment.objects.filter(nonce=nonce).first()
        if existing is not None:
            return existing
    if amount_cents <= 0:
        raise ServiceError("Enter an amount above zero.", "bad_amount", "amount")
    if amount_cents > 1_000_000:
        raise ServiceError("That is more than $10,000: check the amount.", "bad_amount", "amount")
    if player.retired:
        raise ServiceError(f"{player} is retired.", "retired", "player")
    try:
        with transaction.atomic():
            prepayment = Prepayment.objects.create(
                player=player,
                amount_cents=amount_cents,
                starts=starts,
                note=note.strip()[:120],
                nonce=nonce or None,
            )
    except IntegrityError:
        return Prepayment.objects.get(nonce=nonce)
    for night in player.group.nights.filter(date__gte=starts, status=Night.Status.PLANNING):
        night_touch(night)
    return prepayment


@transaction.atomic
def prepayment_undo(*, prepayment: Prepayment) -> None:
    """Take back prepaid dues entered by mistake."""
    player, starts = prepayment.player, prepayment.starts
    prepayment.delete()
    for night in player.group.nights.filter(date__gte=starts, status=Night.Status.PLANNING):
        night_touch(night)
