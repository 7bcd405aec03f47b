"""The group's messages' words, for e-mail (``email``) and text; each carries the player's secret
link."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.core.mail import EmailMessage
from django.urls import reverse
from django.utils.dateformat import format as date_format

from bunco_night.groups.models import Player
from bunco_night.nights.models import Attendance, Night

from .ical import night_event


@dataclass(frozen=True)
class Links:
    """Absolute links for messages: ``absolute(path)`` gives a full address."""

    absolute: Callable[[str], str]

    def mine(self, token: str) -> str:
        """A player's own page."""
        return self.absolute(reverse("invites:mine", args=[token]))

    def offer(self, token: str) -> str:
        """A substitute's page to accept or decline a seat."""
        return self.absolute(reverse("invites:offer", args=[token]))


def site_links() -> Links:
    """Links from the site's address setting, for messages sent without a request."""
    return Links(lambda path: settings.SITE_URL.rstrip("/") + path)


def when(night: Night) -> str:
    """ "Thursday, October 8 at 7:00 PM, at Kay's"."""
    text = date_format(night.date, "l, F j")
    if night.time:
        text += " at " + date_format(night.time, "g:i A")
    if night.place:
        text += f", at {night.place}"
    return text


def day(night: Night) -> str:
    return date_format(night.date, "l, F j")


def status_words(attendance: Attendance) -> str:
    """Where a regular stands for a night, as they read it."""
    if attendance.is_coming:
        return "coming"
    if attendance.sends_substitute:
        return f"not coming; {attendance.substitute.name} plays for you"
    if attendance.has_left:
        return "left early"
    return "not coming"


@dataclass(frozen=True)
class Words:
    subject: str
    body: str
    text: str  # the same news as a short text message


SECRET = "This link is yours alone: please don't share it."


def invitation(
    night: Night,
    player: Player,
    link: str,
    *,
    reminder: bool = False,
    attendance: Attendance | None = None,
) -> Words:
    """The invitation (or ``reminder``, saying where ``attendance`` stands)."""
    group = night.group.name
    if reminder:
        subject = f"Reminder: Bunco on {day(night)}"
        opening = f"A reminder: Bunco with {group} is on {when(night)}."
    else:
        subject = f"Bunco on {day(night)}: are you coming?"
        opening = f"Bunco with {group} is on {when(night)}."
    lines = [f"Hi {player.name},", "", opening]
    if attendance is not None and reminder:
        lines += ["", f"You are down as: {status_words(attendance)}."]
    lines += [
        "",
        "Coming, not coming, or sending a substitute? Answer with your own link:",
        link,
        "",
        SECRET,
        "The night is attached as a calendar invitation.",
    ]
    short = "Reminder: " if reminder else ""
    text = f"{short}Bunco with {group} on {when(night)}. Coming? Answer here: {link}"
    return Words(subject, "\n".join(lines), text)


def offer(night: Night, regular: Player, substitute: Player, link: str) -> Words:
    """Asking a substitute to take a regular's seat."""
    subject = f"Can you play Bunco on {day(night)} for {regular.name}?"
    body = "\n".join(
        [
            f"Hi {substitute.name},",
            "",
            f"{regular.name} cannot come to Bunco with {night.group.name} on {when(night)}.",
            "Can you take the seat? Accept or decline here:",
            link,
            "",
            "The first substitute to accept takes the seat.",
            "The night is attached as a calendar invitation.",
        ]
    )
    text = (
        f"Can you sub for {regular.name} at Bunco ({night.group.name}) on {when(night)}? "
        f"First to accept takes the seat: {link}"
    )
    return Words(subject, body, text)


def filled(night: Night, regular: Player, substitute: Player, taken_by: Player) -> Words:
    """Telling a substitute that someone else took the seat."""
    subject = f"Thanks: the seat on {day(night)} is filled"
    body = "\n".join(
        [
            f"Hi {substitute.name},",
            "",
            f"{taken_by.name} takes {regular.name}'s seat at Bunco on {when(night)}.",
            "Thank you for being ready to play: we will ask you again!",
        ]
    )
    return Words(subject, body, f"Thanks! {regular.name}'s Bunco seat on {day(night)} is filled.")


def withdrawn(night: Night, regular: Player, substitute: Player) -> Words:
    """Telling a substitute the seat no longer needs anyone."""
    subject = f"No longer needed: Bunco on {day(night)}"
    body = "\n".join(
        [
            f"Hi {substitute.name},",
            "",
            f"{regular.name}'s seat at Bunco on {when(night)} no longer needs a substitute.",
            "Thank you all the same!",
        ]
    )
    text = f"{regular.name}'s Bunco seat on {day(night)} no longer needs a substitute. Thanks!"
    return Words(subject, body, text)


def taken(night: Night, regular: Player, substitute: Player, link: str) -> Words:
    """Telling a regular who takes their seat."""
    subject = f"{substitute.name} takes your seat on {day(night)}"
    body = "\n".join(
        [
            f"Hi {regular.name},",
            "",
            f"{substitute.name} takes your seat at Bunco on {when(night)}.",
            "Your page, if anything changes:",
            link,
            "",
            SECRET,
        ]
    )
    return Words(subject, body, f"{substitute.name} takes your Bunco seat on {day(night)}.")


def email(words: Words, to: str, *, night: Night | None = None, link: str = "") -> EmailMessage:
    """An e-mail with ``words``; with ``night``, the night attached as a calendar event."""
    message = EmailMessage(words.subject, words.body, to=[to])
    if night is not None:
        message.attach("bunco-night.ics", night_event(night, url=link), "text/calendar")
    return message
