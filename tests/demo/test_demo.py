"""The demo ships no secret: its links are made fresh and its host's password is random."""

import io
import json
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from bunco_night.demo.demo import password_file
from bunco_night.nights.models import Attendance, Table

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "demo.json"
pytestmark = pytest.mark.django_db


def test_the_fixture_holds_no_password_and_no_link():
    records = json.loads(FIXTURE.read_text(encoding="utf-8"))
    users = [r for r in records if r["model"] == "auth.user"]
    assert [u["fields"]["password"] for u in users] == ["!"]
    assert not any("token" in r["fields"] for r in records)


def load(settings, tmp_path) -> str:
    settings.DEMO_PASSWORD_FILE = str(tmp_path / "demo-password")
    call_command("load_demo", stdout=io.StringIO())
    out = io.StringIO()
    call_command("demo_login", stdout=out)
    return out.getvalue().strip()


def test_loading_makes_a_random_password_that_make_run_prints(settings, tmp_path):
    line = load(settings, tmp_path)
    password = line.removeprefix("Demo host login: username host, password ")
    assert line != password and len(password) >= 12
    assert password_file().read_text().strip() == password
    assert password_file().stat().st_mode & 0o777 == 0o600
    assert get_user_model().objects.get(username="host").check_password(password)


def test_every_load_makes_new_links_and_a_new_password(settings, tmp_path):
    first = load(settings, tmp_path)
    tokens = set(Table.objects.values_list("token", flat=True)) | set(
        Attendance.objects.values_list("token", flat=True)
    )
    assert len(tokens) == Table.objects.count() + Attendance.objects.count()
    call_command("flush", "--noinput")
    second = load(settings, tmp_path)
    again = set(Table.objects.values_list("token", flat=True))
    assert second != first and not (again & tokens)


def test_a_changed_password_is_not_printed(settings, tmp_path):
    load(settings, tmp_path)
    host = get_user_model().objects.get(username="host")
    host.set_password("my own secret")
    host.save()
    out = io.StringIO()
    call_command("demo_login", stdout=out)
    assert "password you chose" in out.getvalue() and "my own secret" not in out.getvalue()


def test_an_old_demo_with_the_well_known_password_gets_a_random_one(settings, tmp_path):
    load(settings, tmp_path)
    password_file().unlink()
    host = get_user_model().objects.get(username="host")
    host.set_password("bunco")
    host.save()
    out = io.StringIO()
    call_command("demo_login", stdout=out)
    password = out.getvalue().strip().removeprefix("Demo host login: username host, password ")
    host.refresh_from_db()
    assert not host.check_password("bunco") and host.check_password(password)


def test_the_demo_nights_award_the_groups_prizes(settings, tmp_path):
    """A night keeps the prizes it was planned with (docs/rules.md section 8.5): every demo
    night was planned with the group's, so its standings pay out the whole pot."""
    from bunco_night.nights.models import Night
    from bunco_night.play.standings import night_standings

    load(settings, tmp_path)
    for night in Night.objects.all():
        group = [p.as_data() for p in night.group.prizes.all()]
        assert group and night.prizes == group
    played = Night.objects.filter(status=Night.Status.FINISHED).first()
    s = night_standings(played)
    assert [p.code for p in s.prizes][:2] == ["most_wins", "most_buncos"]
    assert s.awards.unassigned_cents == 0


def test_editing_the_demo_season_s_share_leaves_its_played_nights_money(settings, tmp_path):
    """docs/rules.md section 7.9: the demo's first night paid a $54 pot (its season kept
    10%); a new share for the season is for the nights to come."""
    from bunco_night.groups.services import season_update
    from bunco_night.nights.models import Night
    from bunco_night.nights.selectors import dues_summary
    from bunco_night.play.standings import night_standings

    load(settings, tmp_path)
    first = Night.objects.filter(status=Night.Status.FINISHED).order_by("date").first()
    before = [(p.key, p.amount_cents, p.payouts) for p in night_standings(first).prizes]
    assert dues_summary(first).pot_cents == 5400
    season = first.group.seasons.get()
    season_update(
        season=season,
        name=season.name,
        starts=season.starts,
        ends=season.ends,
        pot_percent=25,
        regulars_only=season.regulars_only,
    )
    assert dues_summary(first).pot_cents == 5400
    assert [(p.key, p.amount_cents, p.payouts) for p in night_standings(first).prizes] == before
