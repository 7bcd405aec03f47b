"""Asking the group's substitutes to take a regular's seat (docs/rules.md section 8.8);
the first to accept gets it (a locked call and a unique constraint decide)."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from bunco_night.core.errors import ServiceError
from bunco_night.groups.models import Player
from bunco_night.nights.models import Attendance, Night
from bunco_night.nights.services import attendance_set, night_touch

from .. import messages
from ..messages import Links
from ..models import Notice, SubstituteCall, SubstituteOffer
from .links import link_for
from .planning import _check_planning
from .sending import _after_commit, _offer_mail, _plain_mail

Offer = SubstituteOffer.Status
Call = SubstituteCall.Status


def candidates(attendance: Attendance) -> list[Player]:
    """The group's free substitutes: the regular's usual one first, then by name."""
    night = attendance.night
    on_list = set()
    for player_id, sub_id in night.attendances.values_list("player_id", "substitute_id"):
        on_list |= {player_id, sub_id}
    subs = night.group.players.filter(kind=Player.Kind.SUBSTITUTE, retired=False).exclude(
        pk__in=on_list
    )
    usual = attendance.player.usual_substitute_id
    return sorted(subs, key=lambda p: (p.pk != usual, p.name.casefold()))


def on_tonights_list(night: Night, player: Player) -> bool:
    """The player has a place on the night's list: their own, or as someone's substitute."""
    return night.attendances.filter(Q(player=player) | Q(substitute=player)).exists()


@transaction.atomic
def call_start(
    *, attendance: Attendance, mode: str, links: Links, by_player: bool = False
) -> SubstituteCall:
    """Ask the free substitutes for a regular's seat, all at once or in turn."""
    attendance = Attendance.objects.select_related("night__group", "player").get(pk=attendance.pk)
    night = attendance.night
    _check_planning(night)
    if mode not in SubstituteCall.Mode.values:
        raise ServiceError("Choose all at once or one at a time.", "bad_mode", "mode")
    if not attendance.player.is_regular:
        raise ServiceError("Substitutes take a regular's seat.", "not_regular")
    if attendance.sends_substitute:
        raise ServiceError(
            f"{attendance.substitute} already plays for {attendance.player}.", "has_substitute"
        )
    if attendance.calls.filter(status=Call.OPEN).exists():
        raise ServiceError("The substitutes are already being asked for this seat.", "asking")
    free = candidates(attendance)
    if not free:
        raise ServiceError(
            "No substitute on the roster is free that night: add one, or pick someone.",
            "no_candidates",
        )
    if not attendance.is_absent:
        attendance_set(attendance=attendance, status=Attendance.Status.ABSENT)
    try:
        with transaction.atomic():
            call = SubstituteCall.objects.create(
                attendance=attendance, mode=mode, by_player=by_player
            )
    except IntegrityError:
        raise ServiceError(
            "The substitutes are already being asked for this seat.", "asking"
        ) from None
    now = timezone.now()
    offers = []
    for order, player in enumerate(free):
        asked = mode == SubstituteCall.Mode.ALL or order == 0
        offers.append(
            SubstituteOffer(
                call=call,
                player=player,
                order=order,
                status=Offer.ASKED if asked else Offer.WAITING,
                asked_at=now if asked else None,
            )
        )
    SubstituteOffer.objects.bulk_create(offers)
    asked = call.offers.filter(status=Offer.ASKED).select_related("player", "call__attendance")
    _after_commit([_offer_mail(o, links) for o in asked])
    night_touch(night)
    return call


def _ask_next(call: SubstituteCall, links: Links) -> SubstituteOffer | None:
    """Ask the next substitute in turn; with nobody left, the call ends."""
    nxt = call.offers.filter(status=Offer.WAITING).select_related("player").first()
    if nxt is not None:
        nxt.status, nxt.asked_at = Offer.ASKED, timezone.now()
        nxt.save(update_fields=["status", "asked_at"])
        _after_commit([_offer_mail(nxt, links)])
        return nxt
    if not call.offers.filter(status=Offer.ASKED).exists():
        call.status, call.closed = Call.NOBODY, timezone.now()
        call.save(update_fields=["status", "closed"])
    return None


def _withdraw(call: SubstituteCall, status: str, links: Links, taken_by: Player | None = None):
    """Close a call: those still asked hear the seat is filled or no longer needed."""
    call.status, call.closed = status, timezone.now()
    if taken_by is not None:
        call.filled_by = taken_by
    call.save(update_fields=["status", "closed", "filled_by"])
    night, regular = call.attendance.night, call.attendance.player
    outgoing = []
    for o in call.offers.filter(status__in=[Offer.ASKED, Offer.WAITING]).select_related("player"):
        if o.status == Offer.ASKED:
            if taken_by is not None:
                words = messages.filled(night, regular, o.player, taken_by)
                outgoing.append(_plain_mail(night, o.player, Notice.Kind.FILLED, words))
            else:
                words = messages.withdrawn(night, regular, o.player)
                outgoing.append(_plain_mail(night, o.player, Notice.Kind.WITHDRAWN, words))
        o.status = Offer.FILLED if taken_by is not None else Offer.WITHDRAWN
        o.save(update_fields=["status"])
    _after_commit(outgoing)


def already_on_the_list(regular: Player) -> str:
    """What a substitute asked for ``regular``'s seat reads once she has a place tonight."""
    return (
        f"You are already on tonight's list: {regular.name}'s seat needs someone else. Thank you!"
    )


def _lock_call(offer: SubstituteOffer) -> tuple[SubstituteCall, SubstituteOffer]:
    """(the offer's call, locked; the offer re-read); refused once the night has started
    (docs/rules.md section 8.8)."""
    call = SubstituteCall.objects.select_for_update().get(pk=offer.call_id)
    offer = SubstituteOffer.objects.select_related(
        "player", "call__attendance__player", "call__attendance__night__group"
    ).get(pk=offer.pk)
    night = offer.night
    if night.is_over:
        raise ServiceError(
            "This night is over: there is nothing to answer. Thank you!", "night_over"
        )
    if night.is_in_play and offer.status != Offer.ACCEPTED:
        raise ServiceError(
            "The night has started: if you can still come, tell the host.", "night_started"
        )
    return call, offer


@transaction.atomic
def offer_accept(*, offer: SubstituteOffer, links: Links) -> SubstituteOffer:
    """A substitute takes the seat if first; returns the offer, whose status says."""
    call, offer = _lock_call(offer)
    if offer.status == Offer.ACCEPTED:
        return offer  # a second tap on the same button
    if call.status == Call.FILLED or offer.status == Offer.FILLED:
        raise ServiceError("Thank you! Someone else has already taken the seat.", "seat_filled")
    if call.status != Call.OPEN or offer.status == Offer.WITHDRAWN:
        raise ServiceError("Thank you! The seat no longer needs a substitute.", "not_needed")
    if offer.status == Offer.WAITING:
        raise ServiceError("You have not been asked for this seat yet.", "not_asked")
    attendance = Attendance.objects.select_related("player", "night").get(pk=call.attendance_id)
    _check_planning(attendance.night)
    if on_tonights_list(attendance.night, offer.player):
        # Said to her: the reader of the link is the person on the list.
        raise ServiceError(already_on_the_list(attendance.player), "already_playing")
    if not attendance.is_absent:
        # The regular is coming after all, or the host found someone: nobody is needed.
        _withdraw(call, Call.STOPPED, links)
        offer.refresh_from_db()
        return offer
    offer.status, offer.answered_at = Offer.ACCEPTED, timezone.now()
    try:
        with transaction.atomic():
            offer.save(update_fields=["status", "answered_at"])
    except IntegrityError:
        raise ServiceError(
            "Thank you! Someone else has already taken the seat.", "seat_filled"
        ) from None
    attendance_set(
        attendance=attendance, status=Attendance.Status.SENT_SUB, substitute=offer.player
    )
    _withdraw(call, Call.FILLED, links, taken_by=offer.player)
    # The substitute plays this seat: their other offers for the same night end.
    others = SubstituteOffer.objects.filter(
        player=offer.player,
        call__attendance__night=attendance.night,
        call__status=Call.OPEN,
        status__in=[Offer.ASKED, Offer.WAITING],
    ).select_related("call")
    for other in others:
        other.status = Offer.WITHDRAWN
        other.save(update_fields=["status"])
        _ask_next(other.call, links)
    regular = attendance.player
    if regular.email:
        link = links.mine(link_for(regular).token)
        words = messages.taken(attendance.night, regular, offer.player, link)
        _after_commit([_plain_mail(attendance.night, regular, Notice.Kind.TAKEN, words)])
    return offer


@transaction.atomic
def offer_decline(*, offer: SubstituteOffer, links: Links) -> SubstituteOffer:
    """A substitute cannot come; in turn, the next one is asked."""
    call, offer = _lock_call(offer)
    if offer.status == Offer.ACCEPTED:
        raise ServiceError(
            "You have already taken the seat: if you cannot come, tell the host.", "accepted"
        )
    if offer.status != Offer.ASKED or call.status != Call.OPEN:
        return offer
    offer.status, offer.answered_at = Offer.DECLINED, timezone.now()
    offer.save(update_fields=["status", "answered_at"])
    if not call.offers.filter(status=Offer.ASKED).exists():
        _ask_next(call, links)
    night_touch(call.attendance.night)
    return offer


@transaction.atomic
def call_ask_next(*, call: SubstituteCall, links: Links) -> SubstituteOffer:
    """The host asks the next substitute in turn without waiting for an answer."""
    call = SubstituteCall.objects.select_for_update().get(pk=call.pk)
    if call.status != Call.OPEN:
        raise ServiceError("These substitutes are no longer being asked.", "call_closed")
    nxt = _ask_next(call, links)
    if nxt is None:
        raise ServiceError("Every substitute has been asked.", "nobody_left")
    night_touch(call.attendance.night)
    return nxt


@transaction.atomic
def call_stop(*, call: SubstituteCall, links: Links) -> SubstituteCall:
    """Stop asking: the substitutes still asked hear the seat is no longer needed."""
    call = SubstituteCall.objects.select_for_update().get(pk=call.pk)
    if call.status != Call.OPEN:
        return call
    _withdraw(call, Call.STOPPED, links)
    night_touch(call.attendance.night)
    return call


def _stop_calls(attendance: Attendance, links: Links) -> None:
    for call in attendance.calls.select_for_update().filter(status=Call.OPEN):
        _withdraw(call, Call.STOPPED, links)


def calls_follow_host(*, attendance: Attendance, links: Links) -> None:
    """The calls follow a place set by the host or the regular (docs/rules.md 8.8)."""
    if attendance.is_absent:
        return
    if not attendance.sends_substitute:
        _stop_calls(attendance, links)
        return
    taker = attendance.substitute
    for call in attendance.calls.select_for_update().filter(status=Call.OPEN):
        mine = call.offers.filter(player=taker, status__in=[Offer.ASKED, Offer.WAITING])
        mine.update(status=Offer.ACCEPTED, answered_at=timezone.now())
        _withdraw(call, Call.FILLED, links, taken_by=taker)
