"""The site's own system checks (bunco_night/core/checks.py)."""

from types import SimpleNamespace

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError

from bunco_night.core import checks


def databases(monkeypatch, engine: str) -> None:
    """The site's settings as the check reads them, with one database of ``engine``."""
    patched = SimpleNamespace(DATABASES={"default": {"ENGINE": engine, "NAME": "x"}})
    monkeypatch.setattr(checks, "settings", patched)


def test_an_sqlite_without_update_returning_is_refused(monkeypatch):
    """A tap's update answers with RETURNING (SQLite 3.35 and later): with an older SQLite
    the site's checks (run by migrate, runserver and check) fail, naming the version."""
    databases(monkeypatch, "django.db.backends.sqlite3")
    monkeypatch.setattr(checks.sqlite3, "sqlite_version_info", (3, 34, 1))
    monkeypatch.setattr(checks.sqlite3, "sqlite_version", "3.34.1")
    [error] = checks.sqlite_new_enough(None)
    assert error.id == "bunco.E001"
    assert error.msg == "SQLite 3.35 or later is required (this Python has 3.34.1)."
    with pytest.raises(SystemCheckError, match="3.35 or later is required"):
        call_command("check")


def test_a_new_enough_sqlite_or_postgresql_passes(monkeypatch):
    monkeypatch.setattr(checks.sqlite3, "sqlite_version_info", (3, 35, 0))
    databases(monkeypatch, "django.db.backends.sqlite3")
    assert checks.sqlite_new_enough(None) == []
    monkeypatch.setattr(checks.sqlite3, "sqlite_version_info", (3, 7, 0))
    databases(monkeypatch, "django.db.backends.postgresql")
    assert checks.sqlite_new_enough(None) == []
