"""The demo loaded on any day reads as a group in the middle of its season: its next night
ahead, its played nights before it, its rotation and season around them."""

import copy
import datetime as dt
import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from bunco_night.demo.calendar import dated
from bunco_night.groups.models import Group, HostingTurn, Season
from bunco_night.groups.selectors import hosting_turn_on
from bunco_night.nights.models import Night, Prepayment
from bunco_night.nights.plan_views import NO_NIGHT_DAYS
from tests.conftest import TESTS_TODAY, today_is

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "demo.json"
RECORDS = json.loads(FIXTURE.read_text(encoding="utf-8"))
BUILT = dt.datetime(2026, 12, 5, 12, tzinfo=dt.UTC)  # after the fixture's last stamp, that day
# The fixture without most of its entries and seats (nine in ten of its rows): the property's
# examples copy it each time.
BULK = {"play.entry", "nights.seat"}
FEW = [r for r in RECORDS if r["model"] not in BULK] + [
    r for model in BULK for r in [r for r in RECORDS if r["model"] == model][::50]
]


def fields(records: list[dict], model: str) -> list[dict]:
    return [r["fields"] for r in records if r["model"] == model]


def day(value: str) -> dt.date:
    return dt.date.fromisoformat(value)


def stamps(records: list[dict]) -> list[str]:
    return sorted(v for r in records for v in r["fields"].values() if str(v).endswith("Z"))


def test_on_the_day_the_tests_were_written_the_demo_is_as_built():
    assert dated(copy.deepcopy(RECORDS), TESTS_TODAY, BUILT) == RECORDS


def week_of_month(date: dt.date) -> tuple[int, int]:
    """Its weekday and which of them in its month: (3, 1) for a second Thursday."""
    return date.weekday(), (date.day - 1) // 7


def month_index(date: dt.date) -> int:
    return date.year * 12 + date.month


@given(
    today=st.dates(dt.date(2026, 11, 27), dt.date(2040, 12, 31)),
    hours=st.integers(0, 23),
)
def test_any_day_the_demo_is_loaded_its_calendar_holds_together(today, hours):
    now = dt.datetime.combine(today, dt.time(hours), tzinfo=dt.UTC)
    records = dated(copy.deepcopy(FEW), today, now)
    before, after = fields(FEW, "nights.night"), fields(records, "nights.night")
    old_days, new_days = [day(n["date"]) for n in before], [day(n["date"]) for n in after]
    # The planned night is the first second Thursday at least three days ahead.
    planned = [day(n["date"]) for n in after if n["status"] == "planning"]
    assert len(planned) == 1 and (planned[0] - today).days >= 3
    second_thursday = week_of_month(max(old_days))
    sooner = (today + dt.timedelta(days=d) for d in range(3, (planned[0] - today).days))
    assert not any(week_of_month(d) == second_thursday for d in sooner)
    assert (planned[0].month, planned[0].day) not in NO_NIGHT_DAYS
    # Every night on its weekday of the month, the months between them kept.
    assert [week_of_month(d) for d in new_days] == [week_of_month(d) for d in old_days]
    moved = {month_index(n) - month_index(o) for o, n in zip(old_days, new_days, strict=True)}
    assert len(moved) == 1
    played = [day(n["date"]) for n in after if n["status"] == "finished"]
    assert played and max(played) < today
    # The season takes in every night and today, a year from the first of a month, and the
    # played nights' money names it.
    (season,) = fields(records, "groups.season")
    starts, ends = day(season["starts"]), day(season["ends"])
    assert starts.day == 1 and ends == starts.replace(year=starts.year + 1) - dt.timedelta(days=1)
    assert all(starts <= d <= ends for d in [today, *new_days])
    assert season["name"] in (str(starts.year), f"{starts.year}-{ends.year % 100:02d}")
    money = fields(records, "nights.moneyrecord")
    assert money and {m["figures"]["season_name"] for m in money} == {season["name"]}
    # Each month keeps its one hosting turn, and the turns and the prepayment their nights.
    for model, name in [("groups.hostingturn", "month"), ("nights.prepayment", "starts")]:
        months = [day(f[name]) for f in fields(records, model)]
        assert len(set(months)) == len(months)
        assert all(m.day == 1 and starts <= m <= ends for m in months)
        for old, new in zip(fields(FEW, model), months, strict=True):
            for o, n in zip(old_days, new_days, strict=True):
                assert (o.replace(day=1) == day(old[name])) == (n.replace(day=1) == new)
    # What was recorded keeps its order and spacing, and none of it is later than now.
    old, new = stamps(FEW), stamps(records)
    pairs = zip(old, new, strict=True)
    shift = {dt.datetime.fromisoformat(n) - dt.datetime.fromisoformat(o) for o, n in pairs}
    assert len(shift) == 1 and dt.datetime.fromisoformat(new[-1]) <= max(now, BUILT)


@pytest.mark.django_db
def test_the_demo_loaded_in_july_plans_its_next_night_in_august(settings, tmp_path, monkeypatch):
    today_is(monkeypatch, dt.date(2027, 7, 15))
    settings.DEMO_PASSWORD_FILE = str(tmp_path / "demo-password")
    call_command("load_demo", stdout=io.StringIO())
    group = Group.objects.get()
    today = timezone.localdate()
    nxt = group.nights.upcoming(today).get()
    # Second Thursdays: July 8 is a week past, August 12 is the next (December 10, 2026 was).
    assert nxt.date == dt.date(2027, 8, 12)
    assert [n.date for n in group.nights.past(today)] == [
        dt.date(2027, 6, 10),
        dt.date(2027, 5, 13),
        dt.date(2027, 4, 8),
    ]
    assert hosting_turn_on(group, nxt.date).where == nxt.place
    season = Season.objects.covering(today).get()
    assert (season.name, season.starts, season.ends) == (
        "2026-27",
        dt.date(2026, 9, 1),
        dt.date(2027, 8, 31),
    )
    assert HostingTurn.objects.get(place="No Bunco this month").month == dt.date(2027, 7, 1)
    assert Prepayment.objects.get().starts == dt.date(2027, 8, 1)
    finished = Night.objects.filter(status=Night.Status.FINISHED)
    assert {n.money_record.figures["season_name"] for n in finished} == {"2026-27"}
