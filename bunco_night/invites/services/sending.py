"""Sending a night's messages after commit (``_after_commit``), a ``Notice`` each."""

from __future__ import annotations

import logging
import smtplib
from dataclasses import dataclass, field

from django.core.mail import EmailMessage, get_connection
from django.db import transaction

from bunco_night.groups.models import Player
from bunco_night.nights.models import Night

from .. import messages
from ..messages import Links
from ..models import Notice, SubstituteOffer

log = logging.getLogger(__name__)


@dataclass
class Outgoing:
    """A message about a night to one player: by e-mail when they have an address."""

    night: Night
    player: Player
    kind: str
    message: EmailMessage | None


@dataclass
class SendReport:
    sent: list[Player] = field(default_factory=list)
    failed: list[Player] = field(default_factory=list)
    no_email: list[Player] = field(default_factory=list)


def send(outgoing: list[Outgoing]) -> SendReport:
    """Send each e-mail on one connection, logged as a ``Notice``; failures are reported."""
    report = SendReport()
    with get_connection(fail_silently=False) as connection:
        for item in outgoing:
            if item.message is None:
                report.no_email.append(item.player)
                continue
            try:
                connection.send_messages([item.message])
                ok = True
            except (smtplib.SMTPException, OSError) as error:
                log.warning("E-mail to %s failed: %s", item.player, error)
                ok = False
            (report.sent if ok else report.failed).append(item.player)
            Notice.objects.create(
                night=item.night,
                player=item.player,
                kind=item.kind,
                email=item.message.to[0],
                ok=ok,
            )
    return report


def _after_commit(outgoing: list[Outgoing]) -> None:
    if outgoing:
        transaction.on_commit(lambda: send(outgoing))


def _offer_mail(offer: SubstituteOffer, links: Links) -> Outgoing:
    night, regular, sub = offer.night, offer.call.attendance.player, offer.player
    link = links.offer(offer.token)
    words = messages.offer(night, regular, sub, link)
    mail = messages.email(words, sub.email, night=night, link=link) if sub.email else None
    return Outgoing(night, sub, Notice.Kind.OFFER, mail)


def _plain_mail(night: Night, player: Player, kind: str, words) -> Outgoing:
    mail = messages.email(words, player.email) if player.email else None
    return Outgoing(night, player, kind, mail)
