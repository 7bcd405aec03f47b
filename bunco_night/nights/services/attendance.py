"""Who plays tonight (docs/rules.md section 8.1); each change re-seats the next round."""

from __future__ import annotations

from django.db import transaction

from bunco_night.core.errors import Gone, ServiceError
from bunco_night.groups.models import Player
from bunco_night.groups.services import player_add

from ..models import Attendance, Night, RetiredPlace, Seat
from ..played import played_a_round
from .nights import _check_between_rounds, night_lock, night_touch
from .seating import seating_reseat


def lists_follow_retirement(*, player: Player, retired: bool) -> None:
    """A retired player leaves the lists of nights not started (their places kept) and is
    put back on un-retiring (docs/rules.md section 8.1); places with dues or a substitute
    stay for the host."""
    for pk in player.group.nights.filter(status=Night.Status.PLANNING).values_list("pk", flat=True):
        try:
            night = night_lock(pk)
        except Gone:  # deleted meanwhile
            continue
        if night.rounds.started().exists():
            continue
        place = night.attendances.filter(player=player).first()
        if retired and place is not None:
            if place.sends_substitute or place.payments.exists():
                continue
            RetiredPlace.objects.update_or_create(
                night=night, player=player, defaults={"status": place.status, "token": place.token}
            )
            plays = place.plays
            place.delete()  # SET_NULL: a ghost for them stands in for nobody
            night.rounds.pending().update(replaced_seating=None)
            seating_reseat(night, **_plays_change(plays, None))
            night_touch(night)
        elif not retired and place is None:
            kept = night.retired_places.filter(player=player).first()
            if kept is None and not player.is_regular:
                continue
            if player.pk in _playing_ids(night):  # a substitute for someone tonight
                continue
            if kept is None:
                place = Attendance.objects.create(night=night, player=player)
            else:
                place = Attendance(night=night, player=player, status=kept.status)
                if not Attendance.objects.filter(token=kept.token).exists():
                    place.token = kept.token  # their link answers again
                place.save()
            seating_reseat(night, **_plays_change(None, place.plays))
            night_touch(night)
    if not retired:  # what is not put back now never will be
        RetiredPlace.objects.filter(player=player).delete()


def _plays_change(before: Player | None, after: Player | None) -> dict:
    """Who leaves and who arrives when an attendance's player changes."""
    if before == after:
        return {}
    return {
        "leaving": [before.pk] if before else [],
        "arriving": [after.pk] if after else [],
    }


def _playing_ids(night: Night, exclude: Attendance | None = None) -> set[int]:
    ids = set()
    for a in night.attendances.exclude(pk=getattr(exclude, "pk", None)):
        ids.add(a.player_id)
        if a.substitute_id:
            ids.add(a.substitute_id)
    return ids


def _check_only_leaves(night: Night, attendance: Attendance, status: str, substitute) -> None:
    """Refuse any change but leaving for someone who played a round (docs/rules.md 10)."""
    same = status == attendance.status and (substitute is None or substitute == attendance.plays)
    back = attendance.has_left and status == Attendance.Status.COMING
    if same or back:
        return
    played = played_a_round(night)
    for who in (attendance.plays, attendance.player):
        if who is not None and who.pk in played:
            raise ServiceError(
                f"{who.name} has played tonight: they can only leave early (their rounds "
                "and dues stay).",
                "has_played",
                "status",
            )


@transaction.atomic
def attendance_set(
    *, attendance: Attendance, status: str, substitute: Player | None = None
) -> Attendance:
    """Say whether a regular comes, sends a substitute, or sends nobody."""
    night = night_lock(attendance.night_id)
    _check_between_rounds(night)
    _check_only_leaves(night, attendance, status, substitute)
    if status not in (
        Attendance.Status.COMING,
        Attendance.Status.SENT_SUB,
        Attendance.Status.ABSENT,
    ):
        raise ServiceError(
            "Choose coming, sends a substitute, or not coming.", "bad_status", "status"
        )
    if status == Attendance.Status.SENT_SUB:
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
    before = attendance.plays
    attendance.status = status
    attendance.substitute = substitute if status == Attendance.Status.SENT_SUB else None
    attendance.save(update_fields=["status", "substitute"])
    seating_reseat(night, **_plays_change(before, attendance.plays))
    night_touch(attendance.night)
    return attendance


@transaction.atomic
def attendance_send_new_substitute(
    *, attendance: Attendance, name: str, phone: str = "", email: str = ""
) -> Attendance:
    """Add a new substitute to the roster on the spot and send them."""
    sub = player_add(
        group=attendance.night.group,
        name=name,
        kind=Player.Kind.SUBSTITUTE,
        phone=phone,
        email=email,
    )
    return attendance_set(attendance=attendance, status=Attendance.Status.SENT_SUB, substitute=sub)


@transaction.atomic
def guest_add(*, night: Night, player: Player | None = None, name: str = "") -> Attendance:
    """Add a roster ``player`` not on tonight's list, or someone new by ``name`` (who joins
    the roster as a substitute)."""
    night = night_lock(night.pk)
    _check_between_rounds(night)
    if player is None:
        player = player_add(group=night.group, name=name, kind=Player.Kind.SUBSTITUTE)
    if player.group_id != night.group_id:
        raise ServiceError("That player is not in this group.", "other_group", "player")
    if player.retired:
        raise ServiceError(f"{player} is retired.", "retired", "player")
    if player.pk in _playing_ids(night):
        raise ServiceError(f"{player} is already on tonight's list.", "already_playing", "player")
    attendance = Attendance.objects.create(night=night, player=player)
    seating_reseat(night, arriving=[player.pk])
    night_touch(night)
    return attendance


@transaction.atomic
def attendance_leave(*, attendance: Attendance) -> Attendance | None:
    """Someone leaves between rounds: a guest who has not played goes; others are kept."""
    night = night_lock(attendance.night_id)
    _check_between_rounds(night)
    attendance.refresh_from_db()
    before = attendance.plays
    if before is None:  # a second "leaves" (a double tap), or someone not coming
        gone = "has already left" if attendance.has_left else "is not playing tonight"
        raise ServiceError(f"{attendance.player.name} {gone}.", "not_playing")
    played = Seat.objects.filter(round__in=night.rounds.closed(), player=before).exists()
    if not played and not attendance.player.is_regular and not attendance.payments.exists():
        attendance.delete()
        result = None
    else:
        attendance.status = Attendance.Status.LEFT if played else Attendance.Status.ABSENT
        attendance.substitute = None
        attendance.save(update_fields=["status", "substitute"])
        result = attendance
    seating_reseat(night, **_plays_change(before, None))
    night_touch(night)
    return result
