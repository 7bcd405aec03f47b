"""The demo loaded on any day reads as a group in the middle of its season: its planned night
next week, its played nights before it, its rotation and season around them."""

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


@given(
    today=st.dates(dt.date(2026, 11, 27), dt.date(2040, 12, 31)),
    hours=st.integers(0, 23),
)
def test_any_day_the_demo_is_loaded_its_calendar_holds_together(today, hours):
    now = dt.datetime.combine(today, dt.time(hours), tzinfo=dt.UTC)
    records = dated(copy.deepcopy(FEW), today, now)
    before, after = fields(FEW, "nights.night"), fields(records, "nights.night")
    # The planned night comes next week, on its weekday; the nights keep their spacing.
    planned = [day(n["date"]) for n in after if n["status"] == "planning"]
    assert len(planned) == 1 and 7 <= (planned[0] - today).days <= 13
    moved = {day(n["date"]) - day(o["date"]) for o, n in zip(before, after, strict=True)}
    assert len(moved) == 1 and moved.pop().days % 7 == 0
    played = [day(n["date"]) for n in after if n["status"] == "finished"]
    assert played and max(played) < today
    # The season takes in every night and today, a year from the first of a month.
    (season,) = fields(records, "groups.season")
    starts, ends = day(season["starts"]), day(season["ends"])
    assert starts.day == 1 and ends == starts.replace(year=starts.year + 1) - dt.timedelta(days=1)
    assert all(starts <= d <= ends for d in [today, *planned, *played])
    assert season["name"] in (str(starts.year), f"{starts.year}-{ends.year % 100:02d}")
    # Each month a night was played in keeps its hosting turn and the prepayment its night.
    for model, name in [("groups.hostingturn", "month"), ("nights.prepayment", "starts")]:
        for old, new in zip(fields(FEW, model), fields(records, model), strict=True):
            month = day(new[name])
            assert month.day == 1 and starts <= month <= ends
            for o, n in zip(before, after, strict=True):
                if day(o["date"]).replace(day=1) == day(old[name]):
                    assert day(n["date"]).replace(day=1) == month
    # What was recorded keeps its order and spacing, and none of it is later than now.
    old, new = stamps(FEW), stamps(records)
    pairs = zip(old, new, strict=True)
    shift = {dt.datetime.fromisoformat(n) - dt.datetime.fromisoformat(o) for o, n in pairs}
    assert len(shift) == 1 and dt.datetime.fromisoformat(new[-1]) <= max(now, BUILT)


@pytest.mark.django_db
def test_the_demo_loaded_in_july_has_its_next_night_in_july(settings, tmp_path, monkeypatch):
    today_is(monkeypatch, dt.date(2027, 7, 15))
    settings.DEMO_PASSWORD_FILE = str(tmp_path / "demo-password")
    call_command("load_demo", stdout=io.StringIO())
    group = Group.objects.get()
    today = timezone.localdate()
    nxt = group.nights.upcoming(today).get()
    assert nxt.date == dt.date(2027, 7, 22)  # Thursday next week, as December 10, 2026 was
    assert [n.date for n in group.nights.past(today)] == [
        dt.date(2027, 5, 20),
        dt.date(2027, 4, 22),
        dt.date(2027, 3, 25),
    ]
    assert hosting_turn_on(group, nxt.date).where == nxt.place
    season = Season.objects.covering(today).get()
    assert (season.name, season.starts, season.ends) == (
        "2026-27",
        dt.date(2026, 8, 1),
        dt.date(2027, 7, 31),
    )
    assert HostingTurn.objects.get(place="No Bunco this month").month == dt.date(2027, 6, 1)
    assert Prepayment.objects.get().starts == dt.date(2027, 7, 1)
    assert Night.objects.filter(status=Night.Status.FINISHED).count() == 3
