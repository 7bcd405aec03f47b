"""A night as an iCalendar event (RFC 5545): one VEVENT, written by hand."""

from __future__ import annotations

import datetime as dt
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import timezone

from bunco_night.nights.models import Night

# How long a night lasts on the calendar when only the start is known.
NIGHT_LENGTH = dt.timedelta(hours=3)


def escape_text(value: str) -> str:
    """A TEXT value: backslashes, semicolons, commas and line breaks escaped (RFC 5545 3.3.11)."""
    value = value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
    return value.replace("\r\n", "\\n").replace("\n", "\\n").replace("\r", "\\n")


def fold(line: str) -> str:
    """Fold a content line at 75 octets (RFC 5545 3.1), never inside a character."""
    pieces, current, size, limit = [], "", 0, 75
    for char in line:
        width = len(char.encode("utf-8"))
        if size + width > limit:
            pieces.append(current)
            current, size, limit = "", 0, 74  # the leading space takes one octet
        current += char
        size += width
    pieces.append(current)
    return "\r\n ".join(pieces)


def _utc(moment: dt.datetime) -> str:
    return moment.astimezone(dt.UTC).strftime("%Y%m%dT%H%M%SZ")


def night_start(night: Night) -> dt.datetime | None:
    """When the night starts, as an aware time in the site's time zone (None: no time set)."""
    if night.time is None:
        return None
    return dt.datetime.combine(night.date, night.time, tzinfo=ZoneInfo(settings.TIME_ZONE))


def night_event(
    night: Night, *, url: str, description: str = "", now: dt.datetime | None = None
) -> str:
    """The night as a calendar with one event; ``url`` is the player's own link."""
    now = now or timezone.now()
    domain = urlsplit(settings.SITE_URL).hostname or "bunco-night"
    start = night_start(night)
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//Bunco Night//Bunco Night//EN",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        "BEGIN:VEVENT",
        f"UID:night-{night.pk}@{domain}",
        f"DTSTAMP:{_utc(now)}",
        # Each change of the night bumps its version: calendars replace the older copy.
        f"SEQUENCE:{night.version}",
    ]
    if start is None:
        lines += [
            f"DTSTART;VALUE=DATE:{night.date:%Y%m%d}",
            f"DTEND;VALUE=DATE:{night.date + dt.timedelta(days=1):%Y%m%d}",
        ]
    else:
        lines += [f"DTSTART:{_utc(start)}", f"DTEND:{_utc(start + NIGHT_LENGTH)}"]
    lines += [f"SUMMARY:{escape_text(f'Bunco: {night.group.name}')}"]
    if night.place:
        lines.append(f"LOCATION:{escape_text(night.place)}")
    text = description or f"Coming? Answer here: {url}"
    lines += [
        f"DESCRIPTION:{escape_text(text)}",
        f"URL:{url}",
        "STATUS:CONFIRMED",
        "TRANSP:OPAQUE",
        "END:VEVENT",
        "END:VCALENDAR",
    ]
    return "\r\n".join(fold(line) for line in lines) + "\r\n"
