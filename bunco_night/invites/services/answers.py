"""A regular's answer for a night from their own link (docs/rules.md section 8.8), made through
the night's own services."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from bunco_night.core.errors import ServiceError
from bunco_night.groups.models import Player
from bunco_night.nights.models import Attendance, Night
from bunco_night.nights.services import (
    attendance_send_new_substitute,
    attendance_set,
    night_touch,
)

from ..messages import Links
from ..models import Answer, SubstituteCall
from .planning import _check_planning
from .substitutes import _stop_calls, call_start, calls_follow_host

Call = SubstituteCall.Status


def nights_to_answer(player: Player, today) -> list[Night]:
    """The group's nights still to come that the player is on the list of, soonest first."""
    return list(
        player.group.nights.upcoming(today)
        .exclude(status=Night.Status.FINISHED)
        .filter(Q(attendances__player=player) | Q(attendances__substitute=player))
        .distinct()
    )


def two_substitutes(picked: Player) -> str:
    """What a regular is told who picked a substitute and typed a new one's name too."""
    return f"You picked {picked.name} and typed a new name: keep one."


@transaction.atomic
def answer_record(
    *,
    player: Player,
    night: Night,
    choice: str,
    links: Links,
    note: str = "",
    substitute: Player | None = None,
    new_name: str = "",
    new_phone: str = "",
    new_email: str = "",
) -> Answer:
    """Record a regular's answer; a substitute picked or named makes it "sending a
    substitute" whatever ``choice`` says (docs/rules.md section 8.8)."""
    attendance = night.attendances.select_related("night__group", "player").filter(player=player)
    attendance = attendance.first()
    if attendance is None:
        raise ServiceError("You are not on this night's list: ask the host.", "not_on_list")
    _check_planning(attendance.night)
    Choice = Answer.Choice
    if choice not in Choice.values:
        raise ServiceError("Choose coming, not coming, or a substitute.", "bad_choice", "choice")
    if choice == Choice.ASK and (substitute is not None or new_name.strip()):
        choice = Choice.SUBSTITUTE
    if choice == Choice.SUBSTITUTE and substitute is not None and new_name.strip():
        raise ServiceError(two_substitutes(substitute), "two_substitutes", "new_name")
    named = choice == Choice.SUBSTITUTE and substitute is not None
    if choice != Choice.ASK and not named:
        _stop_calls(attendance, links)
    if choice == Choice.COMING:
        attendance_set(attendance=attendance, status=Attendance.Status.COMING)
    elif choice == Choice.ABSENT:
        attendance_set(attendance=attendance, status=Attendance.Status.ABSENT)
    elif choice == Choice.SUBSTITUTE:
        if new_name.strip():
            attendance_send_new_substitute(
                attendance=attendance, name=new_name, phone=new_phone, email=new_email
            )
        elif substitute is not None:
            attendance = attendance_set(
                attendance=attendance, status=Attendance.Status.SENT_SUB, substitute=substitute
            )
            # One of those asked takes the seat as if she accepted; the asking ends.
            calls_follow_host(attendance=attendance, links=links)
        else:
            raise ServiceError(
                "Pick your substitute, or give the name of someone new.",
                "no_substitute",
                "substitute",
            )
    elif not attendance.calls.filter(status=Call.OPEN).exists():
        if attendance.sends_substitute:
            attendance_set(attendance=attendance, status=Attendance.Status.ABSENT)
        call_start(
            attendance=attendance,
            mode=attendance.night.group.ask_substitutes,
            links=links,
            by_player=True,
        )
    answer, _ = Answer.objects.update_or_create(
        attendance=attendance,
        defaults={"choice": choice, "note": note.strip()[:300], "answered": timezone.now()},
    )
    night_touch(attendance.night)
    return answer
