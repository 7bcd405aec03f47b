"""The demo's calendar, moved to the day it is loaded (``dated``): its planned night comes next
week, its played nights and season move with it, and what it recorded was recorded lately."""

from __future__ import annotations

import datetime as dt

# Fields that name a month by its first day, by model: they move to the month their nights reach.
MONTHS = {"groups.hostingturn": ("month",), "nights.prepayment": ("starts",)}
TIME_STAMP_LENGTH = len("2026-12-05T02:38:58.467Z")


def dated(records: list[dict], today: dt.date, now: dt.datetime) -> list[dict]:
    """``records`` (fixtures/demo.json) with the nights moved by whole weeks (their weekdays kept)
    so the planned night falls 7 to 13 days after ``today``; each month named by a hosting turn
    or a prepayment, and the season's bounds, to the month its nights reach; the season named
    by its years; every time stamp moved by whole days so the latest is the day before ``now``'s
    (never later than it was)."""
    nights = [r["fields"] for r in records if r["model"] == "nights.night"]
    planned = max(dt.date.fromisoformat(n["date"]) for n in nights)
    weeks = -((planned - today - dt.timedelta(days=7)).days // 7)  # rounded up
    moved = dt.timedelta(weeks=weeks)
    # A month moves where the nights played in it move: its first night's day, else the 10th.
    first_days: dict[tuple[int, int], dt.date] = {}
    for day in sorted(dt.date.fromisoformat(n["date"]) for n in nights):
        first_days.setdefault((day.year, day.month), day)

    def month(first: dt.date) -> dt.date:
        anchor = first_days.get((first.year, first.month), first.replace(day=10))
        return (anchor + moved).replace(day=1)

    # Time stamps are ISO strings in UTC: the greatest string is the latest time.
    stamps = [v for r in records for v in r["fields"].values() if _is_time_stamp(v)]
    days = max(0, (now.date() - _time_stamp(max(stamps)).date()).days - 1) if stamps else 0
    later = dt.timedelta(days=days)
    for record in records:
        fields, model = record["fields"], record["model"]
        for name, value in fields.items():
            if _is_time_stamp(value):
                fields[name] = _moved_stamp(value, later)
        if model == "nights.night":
            fields["date"] = (dt.date.fromisoformat(fields["date"]) + moved).isoformat()
        for name in MONTHS.get(model, ()):
            fields[name] = month(dt.date.fromisoformat(fields[name])).isoformat()
        if model == "groups.season":
            starts = month(dt.date.fromisoformat(fields["starts"]))
            ends = _year_on(starts) - dt.timedelta(days=1)
            fields["starts"], fields["ends"] = starts.isoformat(), ends.isoformat()
            fields["name"] = _season_name(starts, ends)
    return records


def _year_on(day: dt.date) -> dt.date:
    return day.replace(year=day.year + 1)


def _season_name(starts: dt.date, ends: dt.date) -> str:
    """ "2026" for a calendar year, "2026-27" for a season across two."""
    return str(starts.year) if starts.year == ends.year else f"{starts.year}-{ends.year % 100:02d}"


def _is_time_stamp(value) -> bool:
    return isinstance(value, str) and len(value) == TIME_STAMP_LENGTH and value.endswith("Z")


def _time_stamp(value: str) -> dt.datetime:
    return dt.datetime.fromisoformat(value.removesuffix("Z") + "+00:00")


def _moved_stamp(value: str, later: dt.timedelta) -> str:
    moved = _time_stamp(value) + later
    return moved.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moved.microsecond // 1000:03d}Z"
