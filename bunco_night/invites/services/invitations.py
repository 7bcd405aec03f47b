"""Invitations and reminders: e-mail with a calendar invite, or words for a text."""

from __future__ import annotations

from bunco_night.core.errors import ServiceError
from bunco_night.groups.models import Player
from bunco_night.nights.models import Attendance, Night

from .. import messages
from ..messages import Links
from ..models import Notice
from .links import links_for
from .planning import _check_planning
from .sending import Outgoing, SendReport, send


def recipients(night: Night, kind: str) -> list[Player]:
    """Who gets an invitation (regulars listed) or a reminder (everyone playing)."""
    attendances = night.attendances.select_related("player", "substitute").order_by("player__name")
    if kind == Notice.Kind.INVITATION:
        return [a.player for a in attendances if a.player.is_regular]
    people = [a.plays for a in attendances if a.plays is not None]
    return sorted(people, key=lambda p: p.name.casefold())


def own_rows(night: Night) -> dict[int, Attendance]:
    """Each person's own row of the night's list, by player id."""
    return {a.player_id: a for a in night.attendances.select_related("substitute")}


def invitations_send(*, night: Night, kind: str, links: Links) -> SendReport:
    """E-mail the invitation or reminder; those without e-mail are listed for a text."""
    if kind not in (Notice.Kind.INVITATION, Notice.Kind.REMINDER):
        raise ServiceError("Send an invitation or a reminder.", "bad_kind")
    _check_planning(night)
    outgoing = []
    for player, link, words in invitation_words(night, kind, recipients(night, kind), links):
        mail = messages.email(words, player.email, night=night, link=link) if player.email else None
        outgoing.append(Outgoing(night, player, kind, mail))
    return send(outgoing)


def invitation_words(night: Night, kind: str, people: list[Player], links: Links):
    """(player, link, words) for each of ``people``."""
    personal = links_for(people)
    rows = own_rows(night)
    for player in people:
        link = links.mine(personal[player.pk].token)
        words = messages.invitation(
            night,
            player,
            link,
            reminder=kind == Notice.Kind.REMINDER,
            attendance=rows.get(player.pk),
        )
        yield player, link, words
