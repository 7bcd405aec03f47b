"""The demo's calendar, moved to the day it is loaded (``dated``): a group that meets once a
month, its next night coming up, its played nights and season moved with it, and what it
recorded recorded lately."""

from __future__ import annotations

import datetime as dt

# Fields that name a month by its first day, by model.
MONTHS = {"groups.hostingturn": ("month",), "nights.prepayment": ("starts",)}
TIME_STAMP_LENGTH = len("2026-12-05T02:38:58.467Z")
# The planned night is at least this many days after the day the demo is loaded.
AHEAD = dt.timedelta(days=3)


def dated(records: list[dict], today: dt.date, now: dt.datetime) -> list[dict]:
    """``records`` (fixtures/demo.json) with every month moved by the same number of months, so
    the planned night, on its weekday of the month (its "second Thursday"), is the first such
    day at least ``AHEAD`` of ``today``; each night on its weekday of its moved month; the
    hosting turns, the prepayment and the season with them (the season named by its years,
    where the played nights' money names it too); every time stamp moved by whole days so the
    latest is the day before ``now``'s (never earlier than it was)."""
    nights = [r["fields"] for r in records if r["model"] == "nights.night"]
    planned = max(dt.date.fromisoformat(n["date"]) for n in nights)
    months = today.year * 12 + today.month - (planned.year * 12 + planned.month) - 1
    while _same_day_in(planned, months) < today + AHEAD:
        months += 1
    stamps = [v for r in records for v in r["fields"].values() if _is_time_stamp(v)]
    # Time stamps are ISO strings in UTC: the greatest string is the latest time.
    days = max(0, (now.date() - _time_stamp(max(stamps)).date()).days - 1) if stamps else 0
    renamed = {}  # a season's name before and after
    for season in (r["fields"] for r in records if r["model"] == "groups.season"):
        starts = _month_on(dt.date.fromisoformat(season["starts"]), months)
        ends = _month_on(starts, 12) - dt.timedelta(days=1)
        name = _season_name(starts, ends)
        renamed[season["name"]] = name
        season.update(starts=starts.isoformat(), ends=ends.isoformat(), name=name)
    for record in records:
        fields, model = record["fields"], record["model"]
        for field, value in fields.items():
            if _is_time_stamp(value):
                fields[field] = _moved_stamp(value, dt.timedelta(days=days))
        if model == "nights.night":
            fields["date"] = _same_day_in(dt.date.fromisoformat(fields["date"]), months).isoformat()
        for field in MONTHS.get(model, ()):
            fields[field] = _month_on(dt.date.fromisoformat(fields[field]), months).isoformat()
        if model == "nights.moneyrecord" and fields["figures"].get("season_name") in renamed:
            fields["figures"]["season_name"] = renamed[fields["figures"]["season_name"]]
    return records


def _month_on(day: dt.date, months: int) -> dt.date:
    """The first of the month ``months`` after ``day``'s."""
    index = day.year * 12 + day.month - 1 + months
    return dt.date(index // 12, index % 12 + 1, 1)


def _same_day_in(day: dt.date, months: int) -> dt.date:
    """``day``'s weekday of the month (its second Thursday, say), ``months`` later. The demo's
    nights fall in a month's first four weeks, which every month has."""
    first = _month_on(day, months)
    week = (day.day - 1) // 7
    return first + dt.timedelta(days=(day.weekday() - first.weekday()) % 7 + 7 * week)


def _season_name(starts: dt.date, ends: dt.date) -> str:
    """A season's name: its year ("2026"), or its two ("2026-27")."""
    return str(starts.year) if starts.year == ends.year else f"{starts.year}-{ends.year % 100:02d}"


def _is_time_stamp(value) -> bool:
    return isinstance(value, str) and len(value) == TIME_STAMP_LENGTH and value.endswith("Z")


def _time_stamp(value: str) -> dt.datetime:
    return dt.datetime.fromisoformat(value.removesuffix("Z") + "+00:00")


def _moved_stamp(value: str, later: dt.timedelta) -> str:
    moved = _time_stamp(value) + later
    return moved.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moved.microsecond // 1000:03d}Z"
