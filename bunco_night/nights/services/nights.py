"""A night itself: plan, change, delete; ``night_lock`` and ``night_touch`` for every
night service."""

from __future__ import annotations

import datetime as dt

from django.db import IntegrityError, OperationalError, connection, transaction
from django.db.models import F

from bunco_night.core.errors import Gone, ServiceError
from bunco_night.core.text import column_check, is_nonce
from bunco_night.groups.models import Group, Player

from ..models import Attendance, Night
from ..money import money_record
from ..selectors import delete_refusal


def night_touch(night: Night) -> None:
    """Bump the night's version so polling pages know something changed."""
    Night.objects.filter(pk=night.pk).update(version=F("version") + 1)
    night.refresh_from_db(fields=["version"])


def _bad_form_id() -> ServiceError:
    """The answer to a form sent with an id that is not a form id, or another group's."""
    return ServiceError("This form has no valid id: reload the page.", "bad_nonce")


@transaction.atomic
def night_create(
    *,
    group: Group,
    date: dt.date,
    time: dt.time | None = None,
    place: str = "",
    sets: int | None = None,
    nonce: str | None = None,
) -> Night:
    """Plan a night with copies of the group's rules, dues and prizes; regulars coming.
    A repeated ``nonce`` gives the night it planned (``planned_before`` True)."""
    if nonce and not is_nonce(nonce):
        raise _bad_form_id()
    if nonce:
        existing = Night.objects.filter(nonce=nonce).first()
        if existing is not None:
            return _planned(existing, group)
    rules = group.rules_obj
    sets = rules.sets_per_night if sets is None else sets
    if not 1 <= sets <= 12:
        raise ServiceError("A night has 1 to 12 sets.", "bad_sets", "sets")
    place = column_check(Night, "place", place.strip(), label="The place")
    try:
        with transaction.atomic():
            night = Night.objects.create(
                group=group,
                date=date,
                time=time,
                place=place,
                sets=sets,
                rules=rules.as_dict(),
                dues_cents=group.dues_cents,
                prizes=[p.as_data() for p in group.prizes.all()],
                nonce=nonce or None,
            )
    except IntegrityError:  # the same form, sent twice at once: the first one planned it
        return _planned(Night.objects.get(nonce=nonce), group)
    regulars = group.players.filter(kind=Player.Kind.REGULAR, retired=False)
    Attendance.objects.bulk_create([Attendance(night=night, player=p) for p in regulars])
    return night


def _planned(night: Night, group: Group) -> Night:
    """The night a plan form sent again planned: it must be the same group's."""
    if night.group_id != group.pk:
        raise _bad_form_id()
    night.planned_before = True
    return night


@transaction.atomic
def night_update(
    *, night: Night, date: dt.date, time: dt.time | None, place: str, sets: int
) -> Night:
    """Change when and where, or how many sets, before the night is over. Locks the night first
    (why: docs/architecture.md, Design notes)."""
    night = night_lock(night.pk)
    if night.is_over:
        raise ServiceError("This night is over.", "night_over")
    if not 1 <= sets <= 12:
        raise ServiceError("A night has 1 to 12 sets.", "bad_sets", "sets")
    played = night.rounds.started().order_by("-number").first()
    rules = night.rules_obj
    last = rules.rounds_for(sets)
    if played is not None and played.number > last:
        needed = rules.sets_for(played.number)
        raise ServiceError(
            f"Round {played.number} has been played: this night needs at least {needed} sets.",
            "sets_below_played",
            "sets",
        )
    place = column_check(Night, "place", place.strip(), label="The place")
    night.date, night.time, night.place, night.sets = date, time, place, sets
    night.save(update_fields=["date", "time", "place", "sets"])
    # A round seated beyond the new last round is never played.
    night.rounds.pending().filter(number__gt=last).delete()
    if played is not None and played.is_closed and played.number == last:
        night.status = Night.Status.FINISHED  # the last round of the shorter night is played
        night.save(update_fields=["status"])
        money_record(night)  # docs/rules.md section 7.9
    night_touch(night)
    return night


@transaction.atomic
def night_delete(*, night: Night) -> None:
    """Delete a night that will not happen, with its list, answers and seating, unless
    ``delete_refusal`` says why not. On PostgreSQL it gives up on a held lock after a
    moment and asks to try again (why: docs/architecture.md, Design notes)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL lock_timeout = '500ms'")
    try:
        night = night_lock(night.pk)
        refusal = delete_refusal(night)
        if refusal is not None:
            raise ServiceError(*refusal)
        night.delete()
    except OperationalError as error:
        raise ServiceError(
            "Someone is changing this night right now: try again in a moment.", "night_busy"
        ) from error


def night_lock(night_id: int) -> Night:
    """Lock and return the night's row; raise ``Gone`` (a 404) if it was deleted since."""
    locked = Night.objects.select_for_update().filter(pk=night_id).first()
    if locked is None:
        raise Gone("That night has been deleted.")
    return locked


def _check_between_rounds(night: Night) -> None:
    if night.is_over:
        raise ServiceError("This night is over.", "night_over")
    if night.rounds.playing().exists():
        raise ServiceError(
            "A round is being played: change who plays once it is over.", "round_in_play"
        )
