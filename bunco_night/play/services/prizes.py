"""The night's end and its prizes: finishing early, prize tie-breaks, the door prize."""

from __future__ import annotations

import re
import secrets

from django.db import transaction

from bunco_night.core.errors import ServiceError
from bunco_night.groups.models import Player
from bunco_night.nights.models import Night
from bunco_night.nights.money import money_record
from bunco_night.nights.services import (
    night_lock,
    night_touch,
)
from bunco_night.rules.presets import MARK_CODE_MAX_LENGTH
from bunco_night.rules.prizes import MOST_MARK
from bunco_night.rules.shares import ALL_PRIZE_LABELS

from ..models import TIEBREAK_CODE_MAX_LENGTH, PrizeTiebreak
from ..standings import night_standings


@transaction.atomic
def night_finish(*, night: Night) -> Night:
    """End the night early (after the round in play is closed)."""
    night_lock(night.pk)  # before the pending rounds' rows, as results_recompute
    if night.rounds.playing().exists():
        raise ServiceError("Close the round being played first.", "round_in_play")
    night.rounds.pending().delete()
    night.status = Night.Status.FINISHED
    night.save(update_fields=["status"])
    money_record(night)  # docs/rules.md section 7.9
    night_touch(night)
    return night


SET_CODE = re.compile(r"set-[0-9]{1,2}")  # a set's roll-off, beside the prizes' tie-breaks


def _prize_key_shape(code: str) -> bool:
    """Whether ``code`` can name a prize and be stored (docs/rules.md section 7.5)."""
    if code in ALL_PRIZE_LABELS:
        return True
    mark = code.removeprefix(f"{MOST_MARK}:")
    return (
        mark != code
        and 0 < len(mark) <= MARK_CODE_MAX_LENGTH
        and len(code) <= TIEBREAK_CODE_MAX_LENGTH
        and "\x00" not in mark
    )


@transaction.atomic
def prize_tiebreak_record(*, night: Night, code: str, player: Player | None) -> None:
    """Record (or clear) a tied prize's or set's winner (docs/rules.md sections 7.1, 7.3)."""
    # Checked first: PostgreSQL cannot even compare a code holding a NUL.
    if not _prize_key_shape(code) and not SET_CODE.fullmatch(code):
        raise ServiceError("Pick one of the prizes.", "bad_tiebreak")
    if player is None:
        PrizeTiebreak.objects.filter(night=night, code=code).delete()
    else:
        standings = night_standings(night)
        prize = next((p for p in standings.prizes if p.key == code), None)
        tied_set = next((s for s in standings.sets if s.code == code), None)
        if prize is not None:
            candidates = prize.candidates
        elif tied_set is not None:
            candidates = [p.pk for p in tied_set.level] if len(tied_set.level) > 1 else []
        else:
            candidates = []
        if player.pk not in candidates:
            raise ServiceError("Pick one of the tied players.", "bad_tiebreak")
        PrizeTiebreak.objects.update_or_create(night=night, code=code, defaults={"player": player})
    night_touch(night)


@transaction.atomic
def door_prize_draw(*, night: Night) -> Night:
    """Draw the door prize with a random number kept for good (docs/rules.md section 7.5)."""
    night = night_lock(night.pk)
    if night.door_seed is None:
        night.door_seed = secrets.randbelow(2**31)
        night.save(update_fields=["door_seed"])
        night_touch(night)
    return night
