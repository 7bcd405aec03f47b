"""The project shell: settings from the environment, the welcome page, the demo loader."""

import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from bunco_night.demo.demo import password_file
from bunco_night.groups.models import Group
from bunco_night.nights.selectors import dues_summary
from bunco_night.play.standings import night_standings

ROOT = Path(__file__).resolve().parents[2]


def django_check(env):
    return subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", **env},
    )


def test_refuses_to_start_without_a_secret_key_when_debug_is_off():
    done = django_check({"DJANGO_DEBUG": "0"})
    assert done.returncode != 0
    assert "DJANGO_SECRET_KEY is not set" in done.stderr


def test_starts_with_a_secret_key_or_in_debug():
    assert django_check({"DJANGO_SECRET_KEY": "x" * 50}).returncode == 0
    assert django_check({"DJANGO_DEBUG": "1"}).returncode == 0


def test_database_url_selects_postgresql():
    code = (
        "from django.conf import settings;"
        "print(settings.DATABASES['default']['ENGINE'], settings.DATABASES['default']['NAME'])"
    )
    done = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={
            "PATH": "/usr/bin:/bin",
            "DJANGO_SETTINGS_MODULE": "bunco_night.settings",
            "DJANGO_SECRET_KEY": "k",
            "DATABASE_URL": "postgres://u:p@127.0.0.1:5433/bunco",
        },
    )
    assert done.stdout.split() == ["django.db.backends.postgresql", "bunco"], done.stderr


@pytest.mark.django_db
def test_welcome_page(client):
    response = client.get("/")
    assert response.status_code == 200
    assert b"Bunco Night" in response.content
    assert b"htmx" in response.content  # htmx 2 comes with django-htmx


@pytest.mark.django_db
def test_load_demo_only_touches_an_empty_database(capsys):
    """The demo data: Maple Street Bunco, 12 regulars, 5 substitutes, one host login,
    three past nights with complete results, and a season with the next night's answers;
    never loaded over existing data."""
    call_command("load_demo")
    user = get_user_model().objects.get(username="host")
    # A random password, kept beside the database (the demo's own tests say more).
    assert user.check_password(password_file().read_text().strip())
    assert not user.check_password("bunco")
    group = Group.objects.get(name="Maple Street Bunco")
    assert group.is_host(user)
    assert group.players.filter(kind="regular").count() == 12
    assert group.players.filter(kind="substitute").count() == 5
    nights = list(group.nights.filter(status="finished"))
    assert len(nights) == 3
    for night in nights:
        standings = night_standings(night)
        assert standings.rounds_closed == night.sets * 6
        assert sum(s.wins for s in standings.standings) == standings.rounds_closed * 6
        summary = dues_summary(night)
        # Everyone paid but Hattie's substitute in October; 10% goes to the season's pot.
        assert summary.collected_cents == (11 if night.date.month == 10 else 12) * 500
        assert standings.pot_cents == summary.collected_cents * 9 // 10
    # The season: a rotation, December's night planned from it, and players' answers.
    season = group.seasons.get()
    december = group.nights.get(status="planning")
    assert december.place == season.rotation.get(month__month=12).where == "Bea Okafor's"
    assert december.attendances.filter(answer__isnull=False).count() == 5
    hattie = next(
        r for r in dues_summary(december).rows if r.attendance.player.name.startswith("Hattie")
    )
    assert hattie.carried_cents == 500
    call_command("load_demo")
    assert "already holds data" in capsys.readouterr().out
    assert get_user_model().objects.count() == 1 and Group.objects.count() == 1


@pytest.mark.django_db
def test_load_demo_refuses_a_database_with_any_user(capsys):
    get_user_model().objects.create_user("someone", password="x" * 12)
    call_command("load_demo")
    assert "already holds data" in capsys.readouterr().out
    assert not Group.objects.exists()


@pytest.mark.django_db
def test_an_htmx_request_with_an_expired_login_redirects_the_whole_page(client):
    response = client.get("/groups/", HTTP_HX_REQUEST="true")
    assert response.status_code == 204
    assert response["HX-Redirect"].startswith("/accounts/login/")
    assert client.get("/groups/").status_code == 302  # a plain request still redirects
